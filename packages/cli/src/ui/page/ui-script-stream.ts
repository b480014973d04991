// The live stream (server-sent events) and the page's start.
// Part of /ui.js (see ui-page-script.ts): plain browser JS inside the page's one closure.
export const UI_SCRIPT_STREAM = `
  function connect() {
    var source = new EventSource('/events?token=' + encodeURIComponent(token));
    source.addEventListener('open', function () {
      setConnection('live', 'live');
    });
    source.addEventListener('error', function () {
      setConnection('down', source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…');
    });
    source.addEventListener('hello', function (message) {
      var hello = JSON.parse(message.data);
      approvalsEnabled = hello.approvals === true;
      $('approvals-off').hidden = approvalsEnabled;
      renderPendingCount();
      setConnection('live', hello.source === 'audit' ? 'following the audit log' : 'live');
    });
    source.addEventListener('tool', function (message) {
      onToolEvent(JSON.parse(message.data));
    });
    source.addEventListener('pending', function (message) {
      var list = JSON.parse(message.data);
      var ids = new Set(list.map(function (approval) {
        return approval.id;
      }));
      Array.from(pending.keys()).forEach(function (id) {
        if (!ids.has(id)) removePending(id);
      });
      list.forEach(function (approval) {
        addPending(approval, true);
      });
      if (list.length > 0) announce(list.length + ' call(s) waiting for your approval.');
    });
    source.addEventListener('approval', function (message) {
      onApprovalChange(JSON.parse(message.data));
    });
  }

  function start() {
    ['filter-tool', 'filter-verdict', 'filter-session'].forEach(function (id) {
      $(id).addEventListener('change', renderTimeline);
    });
    $('filter-session').addEventListener('change', filterApprovals);
    $('filters').addEventListener('submit', function (event) {
      event.preventDefault();
    });
    api('/api/policy')
      .then(function (response) {
        return response.ok ? response.json() : { sections: [] };
      })
      .then(renderPolicy)
      .catch(function () {});
    refreshSessions();
    connect();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
`;

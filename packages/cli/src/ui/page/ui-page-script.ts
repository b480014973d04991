// The page's script, served as /ui.js (the CSP allows no inline script). Plain browser JS: every
// server value is set with textContent, never parsed as HTML.
export const UI_PAGE_SCRIPT = `
'use strict';
// Every value from the server is rendered with textContent: a tool preview is attacker text.
(function () {
  var token = new URLSearchParams(location.search).get('token') || '';
  var MAX_EVENTS = 1000;
  var events = [];
  var calls = new Map();
  var verdicts = new Map();
  var pending = new Map();
  var tools = new Set();
  var sessions = new Set();
  var approvalsEnabled = true;

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function api(path, init) {
    var options = init || {};
    var headers = { authorization: 'Bearer ' + token };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(path, {
      method: options.method || 'GET',
      headers: headers,
      body: options.body,
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  }

  function clock(at) {
    return new Date(at).toLocaleTimeString([], { hour12: false });
  }

  function shortId(id) {
    return String(id).slice(0, 8);
  }

  function bytes(n) {
    if (typeof n !== 'number') return '';
    if (n < 1024) return n + ' B';
    if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KiB';
    return (n / 1024 / 1024).toFixed(1) + ' MiB';
  }

  function preview(value) {
    if (value === undefined) return '';
    var text = typeof value === 'string' ? value : JSON.stringify(value);
    return text.length > 300 ? text.slice(0, 300) + '…' : text;
  }

  function announce(text) {
    var announcer = $('announcer');
    announcer.textContent = '';
    setTimeout(function () {
      announcer.textContent = text;
    }, 50);
  }

  function setConnection(state, text) {
    var node = $('connection');
    node.dataset.state = state;
    node.textContent = text;
  }

  function stepLabel(event) {
    switch (event.step) {
      case 'called':
        return 'called';
      case 'approval_requested':
        return 'approval requested';
      case 'approval_decided':
        return event.outcome === 'approved' ? 'approved' : 'denied';
      case 'result':
        return event.success ? 'result' : 'error ' + (event.errorCode || '');
      default:
        return 'step';
    }
  }

  function nextVerdict(event, before) {
    switch (event.step) {
      case 'called':
        return 'running';
      case 'approval_requested':
        return 'waiting';
      case 'approval_decided':
        return event.outcome === 'denied' ? 'denied' : 'running';
      case 'result':
        if (event.success) return 'succeeded';
        return before === 'denied' || event.errorCode === 'tool_denied' ? 'denied' : 'failed';
      default:
        return before || 'running';
    }
  }

  function addOption(select, value, label) {
    var option = el('option', '', label);
    option.value = value;
    select.appendChild(option);
  }

  function noteFilters(event) {
    if (!tools.has(event.toolId)) {
      tools.add(event.toolId);
      addOption($('filter-tool'), event.toolId, event.toolId);
    }
    if (!sessions.has(event.sessionId)) {
      sessions.add(event.sessionId);
      addOption($('filter-session'), event.sessionId, shortId(event.sessionId));
    }
  }

  function callRow(event) {
    var call = calls.get(event.callId);
    if (call) return call;
    var row = el('tr', 'call');
    row.dataset.callId = event.callId;
    row.dataset.tool = event.toolId;
    var cells = {};
    ['time', 'session', 'tool', 'input', 'steps', 'verdict', 'duration', 'result', 'spill'].forEach(
      function (name) {
        var cell = el(name === 'tool' ? 'th' : 'td', 'cell-' + name);
        if (name === 'tool') cell.scope = 'row';
        cells[name] = cell;
        row.appendChild(cell);
      },
    );
    cells.time.textContent = clock(event.at);
    cells.session.textContent = shortId(event.sessionId);
    cells.session.title = event.sessionId;
    cells.tool.textContent = event.toolId;
    cells.steps.appendChild(el('ol', 'steps'));
    call = { row: row, cells: cells };
    calls.set(event.callId, call);
    var body = $('calls-body');
    body.insertBefore(row, body.firstChild);
    while (body.children.length > MAX_EVENTS) {
      var last = body.lastChild;
      calls.delete(last.dataset.callId);
      body.removeChild(last);
    }
    $('calls-count').textContent = String(calls.size);
    $('calls-empty').hidden = true;
    return call;
  }

  function showVerdict(call, verdict) {
    var badge = el('span', 'badge badge-' + verdict, verdict);
    call.cells.verdict.replaceChildren(badge);
    call.row.dataset.verdict = verdict;
  }

  function onToolEvent(event) {
    events.push(event);
    if (events.length > MAX_EVENTS) events.shift();
    noteFilters(event);
    var verdict = nextVerdict(event, verdicts.get(event.callId));
    verdicts.set(event.callId, verdict);
    var call = callRow(event);
    var step = el('li', 'step step-' + event.step, stepLabel(event));
    call.cells.steps.firstChild.appendChild(step);
    showVerdict(call, verdict);
    if (event.step === 'approval_requested') {
      call.cells.input.replaceChildren(el('code', 'input', preview(event.preview)));
    }
    if (event.step === 'approval_decided' && event.reason) step.title = event.reason;
    if (event.step === 'result') {
      if (event.toolInput !== undefined)
        call.cells.input.replaceChildren(el('code', 'input', preview(event.toolInput)));
      call.cells.duration.textContent = event.durationMs + ' ms';
      var result = call.cells.result;
      result.replaceChildren();
      if (event.resultBytes !== undefined) result.appendChild(el('span', 'size', bytes(event.resultBytes)));
      if (event.truncated) result.appendChild(el('span', 'badge badge-cut', 'cut'));
      result.appendChild(el('span', 'summary', preview(event.outputSummary)));
      if (event.spill) {
        var button = el('button', 'link', 'view ' + bytes(event.spill.byteLength));
        button.type = 'button';
        button.setAttribute('aria-label', 'View the spill of this ' + event.toolId + ' call');
        button.addEventListener('click', function () {
          showSpill(event.sessionId, event.spill.id);
        });
        call.cells.spill.replaceChildren(button);
        refreshSessions();
      }
    }
    renderTimelineEntry(event, true);
  }

  function timelineMatches(event) {
    var tool = $('filter-tool').value;
    var verdict = $('filter-verdict').value;
    var session = $('filter-session').value;
    return (
      (!tool || event.toolId === tool) &&
      (!session || event.sessionId === session) &&
      (!verdict || verdicts.get(event.callId) === verdict)
    );
  }

  function renderTimelineEntry(event, live) {
    if (!timelineMatches(event)) {
      if (live && $('filter-verdict').value) renderTimeline();
      return;
    }
    var item = el('li', 'entry entry-' + event.step);
    item.dataset.callId = event.callId;
    item.appendChild(el('time', 'entry-time', clock(event.at)));
    item.appendChild(el('span', 'entry-tool', event.toolId));
    item.appendChild(el('span', 'entry-step', stepLabel(event)));
    var detail = '';
    if (event.step === 'approval_requested') detail = event.action + ' ' + preview(event.preview);
    if (event.step === 'approval_decided' && event.reason) detail = event.reason;
    if (event.step === 'result') detail = event.durationMs + ' ms · ' + preview(event.outputSummary);
    item.appendChild(el('span', 'entry-detail', detail));
    item.appendChild(el('span', 'entry-session', 'session ' + shortId(event.sessionId)));
    var list = $('timeline-list');
    list.insertBefore(item, list.firstChild);
    while (list.children.length > MAX_EVENTS) list.removeChild(list.lastChild);
    if (live && $('filter-verdict').value) renderTimeline();
  }

  function renderTimeline() {
    $('timeline-list').replaceChildren();
    events.forEach(function (event) {
      renderTimelineEntry(event, false);
    });
  }

  function describePreview(list, previewValue) {
    ['path', 'destination', 'command', 'host', 'change'].forEach(function (key) {
      if (previewValue[key] === undefined) return;
      list.appendChild(el('dt', '', key));
      var value = el('dd', '');
      value.appendChild(el(key === 'change' ? 'pre' : 'code', 'preview-value', previewValue[key]));
      list.appendChild(value);
    });
  }

  function renderPendingCount() {
    $('approvals-count').textContent = String(pending.size);
    $('approvals-empty').hidden = pending.size > 0 || !approvalsEnabled;
    document.title = (pending.size > 0 ? '(' + pending.size + ') ' : '') + 'toolhost control tower';
  }

  function addPending(approval, quiet) {
    if (pending.has(approval.id)) return;
    var item = el('li', 'approval');
    item.dataset.approvalId = approval.id;
    var titleId = 'approval-' + approval.id;
    item.setAttribute('aria-labelledby', titleId);
    var title = el('h3', 'approval-title');
    title.id = titleId;
    title.appendChild(el('span', 'approval-tool', approval.toolId));
    title.appendChild(el('span', 'badge badge-action', approval.action));
    item.appendChild(title);
    var details = el('dl', 'preview');
    describePreview(details, approval.preview || {});
    item.appendChild(details);
    if (approval.note) item.appendChild(el('p', 'note', approval.note));
    var countdown = el('p', 'deadline');
    item.appendChild(countdown);
    var reasonId = 'reason-' + approval.id;
    var label = el('label', 'reason-label', 'Reason for a denial (optional, sent to the agent)');
    label.htmlFor = reasonId;
    var reason = el('input', 'reason');
    reason.id = reasonId;
    reason.type = 'text';
    reason.maxLength = 500;
    reason.autocomplete = 'off';
    item.appendChild(label);
    item.appendChild(reason);
    var actions = el('div', 'actions');
    var status = el('p', 'approval-status');
    status.setAttribute('role', 'status');
    [
      ['once', 'Approve once', 'approve'],
      ['session', 'Approve for this session', 'approve-session'],
      ['deny', 'Deny', 'deny'],
    ].forEach(function (choice) {
      var button = el('button', 'button button-' + choice[2], choice[1]);
      button.type = 'button';
      button.dataset.choice = choice[0];
      button.setAttribute('aria-describedby', titleId);
      button.addEventListener('click', function () {
        decide(approval, choice[0], reason.value, item, status);
      });
      actions.appendChild(button);
    });
    item.appendChild(actions);
    item.appendChild(status);
    var tick = function () {
      var left = Math.max(0, Math.round((approval.deadline - Date.now()) / 1000));
      countdown.textContent = 'Denied automatically in ' + left + ' s if nobody answers.';
    };
    tick();
    pending.set(approval.id, { item: item, timer: setInterval(tick, 1000) });
    $('approvals-list').appendChild(item);
    renderPendingCount();
    if (!quiet) {
      announce(approval.toolId + ' is waiting for your approval: ' + approval.action + ' ' + preview(approval.preview));
    }
  }

  function removePending(id, text) {
    var entry = pending.get(id);
    if (!entry) return;
    clearInterval(entry.timer);
    entry.item.remove();
    pending.delete(id);
    renderPendingCount();
    if (text) announce(text);
  }

  function decide(approval, choice, reason, item, status) {
    item.querySelectorAll('button').forEach(function (button) {
      button.disabled = true;
    });
    var body = choice === 'deny' ? { choice: choice, reason: reason } : { choice: choice };
    api('/api/approvals/' + encodeURIComponent(approval.id), {
      method: 'POST',
      body: JSON.stringify(body),
    })
      .then(function (response) {
        if (response.ok) {
          status.textContent = choice === 'deny' ? 'Denied.' : 'Approved.';
          return;
        }
        status.textContent =
          response.status === 404 ? 'Already answered or timed out.' : 'Refused (' + response.status + ').';
      })
      .catch(function () {
        status.textContent = 'Could not reach toolhost.';
        item.querySelectorAll('button').forEach(function (button) {
          button.disabled = false;
        });
      });
  }

  function onApprovalChange(change) {
    if (change.kind === 'requested') {
      addPending(change.approval, false);
      return;
    }
    var entry = pending.get(change.id);
    var tool = entry ? entry.item.querySelector('.approval-tool').textContent : 'a call';
    removePending(change.id, 'The approval of ' + tool + ' was ' + change.outcome + ' (' + change.by + ').');
  }

  function renderPolicy(view) {
    var body = $('policy-body');
    body.replaceChildren();
    (view.sections || []).forEach(function (section) {
      var group = el('section', 'policy-group');
      group.appendChild(el('h3', '', section.title));
      var list = el('dl', '');
      section.rows.forEach(function (row) {
        list.appendChild(el('dt', '', row.label));
        list.appendChild(el('dd', '', row.value));
      });
      group.appendChild(list);
      body.appendChild(group);
    });
  }

  function renderSessions(list) {
    var body = $('sessions-list');
    body.replaceChildren();
    if (list.length === 0) body.appendChild(el('li', 'empty', 'No sessions yet.'));
    list.forEach(function (session) {
      var item = el('li', 'session');
      var head = el('p', 'session-head');
      head.appendChild(el('code', '', shortId(session.id)));
      head.appendChild(
        el('span', 'session-state', session.closedAt ? 'ended ' + clock(session.closedAt) : 'live since ' + clock(session.openedAt)),
      );
      item.appendChild(head);
      if (session.spills.length === 0) item.appendChild(el('p', 'hint', 'no spills'));
      var spills = el('ul', 'spills');
      session.spills.forEach(function (spill, index) {
        var entry = el('li', '');
        var button = el('button', 'link', 'spill ' + (index + 1) + ' · ' + bytes(spill.byteLength));
        button.type = 'button';
        button.addEventListener('click', function () {
          showSpill(session.id, spill.id);
        });
        entry.appendChild(button);
        spills.appendChild(entry);
      });
      item.appendChild(spills);
      body.appendChild(item);
    });
  }

  function refreshSessions() {
    api('/api/sessions')
      .then(function (response) {
        return response.ok ? response.json() : { sessions: [] };
      })
      .then(function (data) {
        renderSessions(data.sessions || []);
      })
      .catch(function () {});
  }

  function showSpill(sessionId, spillId) {
    var view = $('spill-view');
    api('/api/sessions/' + encodeURIComponent(sessionId) + '/spills/' + encodeURIComponent(spillId))
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (spill) {
        $('spill-meta').textContent =
          'session ' + shortId(sessionId) + ' · ' + bytes(spill.byteLength) + (spill.clipped ? ' · first part shown' : '') + ' · redacted';
        $('spill-text').textContent = spill.text;
        view.hidden = false;
        $('spill-text').focus();
      })
      .catch(function () {
        $('spill-meta').textContent = 'This spill is gone (its session ended) or belongs to another session.';
        $('spill-text').textContent = '';
        view.hidden = false;
      });
  }

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
})();
`;

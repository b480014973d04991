// The active policy, the sessions and their spills (each read only under its own session).
// Part of /ui.js (see ui-page-script.ts): plain browser JS inside the page's one closure.
export const UI_SCRIPT_POLICY = `
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

`;

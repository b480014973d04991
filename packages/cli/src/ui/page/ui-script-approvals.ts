// The pending approvals: a card per waiting call, its countdown, and the page's answer.
// Part of /ui.js (see ui-page-script.ts): plain browser JS inside the page's one closure.
export const UI_SCRIPT_APPROVALS = `
  // Each value goes in as DOM text (el sets textContent), never as markup. A write says first
  // whether it replaces the file or appends to it, then how much, then its scrubbed start.
  function describePreview(list, previewValue) {
    var rows = [
      ['path', previewValue.path],
      ['destination', previewValue.destination],
      ['write', describeWrite(previewValue)],
      ['change', previewValue.change],
      ['content', previewValue.content],
      ['command', previewValue.command],
      ['host', previewValue.host],
      ['server', previewValue.server],
      ['tool', previewValue.tool],
    ];
    rows.forEach(function (row) {
      var key = row[0];
      if (typeof row[1] !== 'string') return;
      var cut = key === 'content' && previewValue.contentTruncated === true;
      list.appendChild(el('dt', '', cut ? 'content (start)' : key));
      var value = el('dd', '');
      var block = key === 'change' || key === 'content';
      value.appendChild(el(block ? 'pre' : 'code', 'preview-value preview-' + key, row[1]));
      if (cut) value.appendChild(el('p', 'preview-cut', '✂ cut here: the rest of the text is not shown'));
      list.appendChild(value);
    });
  }

  function describeWrite(previewValue) {
    var mode = previewValue.writeMode;
    var count = previewValue.byteCount;
    if (mode === undefined && count === undefined) return undefined;
    var size = typeof count === 'number' ? count + (count === 1 ? ' byte' : ' bytes') : 'text';
    return mode === 'append'
      ? 'append ' + size + ' to the end of the file'
      : 'replace the whole file with ' + size;
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
    // The session its calls are listed under: the card and its call row name the same one.
    item.dataset.sessionId = approval.sessionId;
    var session = el('p', 'approval-session', 'session ');
    var sessionCode = el('code', '', shortId(approval.sessionId));
    sessionCode.title = approval.sessionId;
    session.appendChild(sessionCode);
    item.appendChild(session);
    noteSession(approval.sessionId);
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
    filterApproval(item);
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
    // The session it was shown under: the server refuses it for any other session's call.
    var body = { choice: choice, sessionId: approval.sessionId };
    if (choice === 'deny') body.reason = reason;
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
          response.status === 404 ? 'Already answered, timed out or withdrawn: nothing was approved.' : 'Refused (' + response.status + ').';
      })
      .catch(function () {
        status.textContent = 'Could not reach toolhost.';
        item.querySelectorAll('button').forEach(function (button) {
          button.disabled = false;
        });
      });
  }

  // The timeline's session filter covers the waiting calls too.
  function filterApproval(item) {
    var session = $('filter-session').value;
    item.hidden = Boolean(session) && item.dataset.sessionId !== session;
  }

  function filterApprovals() {
    pending.forEach(function (entry) {
      filterApproval(entry.item);
    });
  }

  function onApprovalChange(change) {
    if (change.kind === 'requested') {
      addPending(change.approval, false);
      return;
    }
    var entry = pending.get(change.id);
    var tool = entry ? entry.item.querySelector('.approval-tool').textContent : 'a call';
    removePending(change.id, settledText(tool, change));
  }

  // A refusal nobody made is never shown as a denial someone gave.
  function settledText(tool, change) {
    if (change.by === 'timeout') {
      return 'The approval of ' + tool + ' timed out: nobody decided, the call was refused.';
    }
    if (change.by === 'withdrawn') {
      return 'The approval of ' + tool + ' was withdrawn: its client left before anyone decided.';
    }
    return 'The approval of ' + tool + ' was ' + change.outcome + ' (' + change.by + ').';
  }

`;

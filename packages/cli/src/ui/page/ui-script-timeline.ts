// The calls table and the audit timeline: one row per call, one entry per step, the filters.
// Part of /ui.js (see ui-page-script.ts): plain browser JS inside the page's one closure.
export const UI_SCRIPT_TIMELINE = `
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
    noteSession(event.sessionId);
  }

  function noteSession(sessionId) {
    if (sessions.has(sessionId)) return;
    sessions.add(sessionId);
    addOption($('filter-session'), sessionId, shortId(sessionId));
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
    if (event.step === 'approval_decided') step.title = decidedDetail(event);
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
    if (event.step === 'approval_decided') detail = decidedDetail(event);
    if (event.step === 'result') detail = event.durationMs + ' ms · ' + preview(event.outputSummary);
    item.appendChild(el('span', 'entry-detail', detail));
    item.appendChild(el('span', 'entry-session', 'session ' + shortId(event.sessionId)));
    var list = $('timeline-list');
    list.insertBefore(item, list.firstChild);
    while (list.children.length > MAX_EVENTS) list.removeChild(list.lastChild);
    if (live && $('filter-verdict').value) renderTimeline();
  }

  // Who decided (the page, the client, a timeout …) and the reason given, when there was one.
  function decidedDetail(event) {
    var by = event.by ? 'by ' + event.by : '';
    if (!event.reason) return by;
    return by ? by + ' · ' + event.reason : event.reason;
  }

  function renderTimeline() {
    $('timeline-list').replaceChildren();
    events.forEach(function (event) {
      renderTimelineEntry(event, false);
    });
  }

`;

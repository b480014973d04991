/**
 * The page: static, accessible HTML whose only dynamic part is the token in the URLs of its own
 * script and style (every route checks it). A token is base64url: nothing in it needs escaping,
 * and anything else is refused rather than written into the page.
 */
export function renderUiPage(token: string): string {
  if (!/^[A-Za-z0-9_-]+$/u.test(token)) throw new TypeError('toolhost: malformed ui token');
  return PAGE.replaceAll('__TOKEN__', token);
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>toolhost control tower</title>
<link rel="stylesheet" href="/ui.css?token=__TOKEN__">
<script src="/ui.js?token=__TOKEN__" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to the pending approvals</a>
<header class="masthead">
  <div class="brand">
    <h1>toolhost <span class="brand-sub">control tower</span></h1>
    <p class="brand-note">Every tool call your agent makes through toolhost, and the ones waiting for you.</p>
  </div>
  <p id="connection" class="connection" role="status" data-state="connecting">connecting…</p>
</header>
<nav class="sections" aria-label="Sections">
  <ul>
    <li><a href="#approvals">Pending approvals</a></li>
    <li><a href="#calls">Tool calls</a></li>
    <li><a href="#timeline">Audit timeline</a></li>
    <li><a href="#policy">Active policy</a></li>
    <li><a href="#sessions">Sessions and spills</a></li>
  </ul>
</nav>
<main id="main" tabindex="-1">
  <section id="approvals" class="panel panel-approvals" aria-labelledby="approvals-title">
    <h2 id="approvals-title">Pending approvals <span id="approvals-count" class="count">0</span></h2>
    <p id="approvals-empty" class="empty">Nothing is waiting for you.</p>
    <p id="approvals-off" class="empty" hidden>This page only reads an audit log: it takes no approvals.</p>
    <ul id="approvals-list" class="approvals"></ul>
  </section>
  <section id="calls" class="panel" aria-labelledby="calls-title">
    <h2 id="calls-title">Tool calls <span id="calls-count" class="count">0</span></h2>
    <p class="hint">Arguments and results are the engine's redacted projections; secrets never reach this page.</p>
    <div class="table-wrap">
      <table class="calls">
        <caption class="visually-hidden">Tool calls, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Session</th>
            <th scope="col">Tool</th>
            <th scope="col">Input (redacted)</th>
            <th scope="col">Steps</th>
            <th scope="col">Verdict</th>
            <th scope="col">Duration</th>
            <th scope="col">Result</th>
            <th scope="col">Spill</th>
          </tr>
        </thead>
        <tbody id="calls-body"></tbody>
      </table>
    </div>
    <p id="calls-empty" class="empty">No calls yet.</p>
  </section>
  <section id="timeline" class="panel" aria-labelledby="timeline-title">
    <h2 id="timeline-title">Audit timeline</h2>
    <form id="filters" class="filters" role="search" aria-label="Filter the timeline">
      <label for="filter-tool">Tool</label>
      <select id="filter-tool"><option value="">all tools</option></select>
      <label for="filter-verdict">Verdict</label>
      <select id="filter-verdict">
        <option value="">all verdicts</option>
        <option value="succeeded">succeeded</option>
        <option value="denied">denied</option>
        <option value="failed">failed</option>
        <option value="waiting">waiting for approval</option>
        <option value="running">running</option>
      </select>
      <label for="filter-session">Session</label>
      <select id="filter-session"><option value="">all sessions</option></select>
    </form>
    <ol id="timeline-list" class="timeline" aria-label="Timeline entries, newest first"></ol>
  </section>
  <section id="policy" class="panel" aria-labelledby="policy-title">
    <h2 id="policy-title">Active policy</h2>
    <div id="policy-body" class="policy"></div>
  </section>
  <section id="sessions" class="panel" aria-labelledby="sessions-title">
    <h2 id="sessions-title">Sessions and spills</h2>
    <p class="hint">A spill is the full output of a call whose result was cut; each is readable only under its own session.</p>
    <ul id="sessions-list" class="sessions"></ul>
    <section id="spill-view" class="spill-view" aria-labelledby="spill-title" hidden>
      <h3 id="spill-title">Spill</h3>
      <p id="spill-meta" class="hint"></p>
      <pre id="spill-text" class="spill-text" tabindex="0"></pre>
    </section>
  </section>
</main>
<div id="announcer" class="visually-hidden" aria-live="assertive" aria-atomic="true"></div>
<footer class="footer"><p>Served on 127.0.0.1 only. The token in this page's address is a password: do not share it.</p></footer>
</body>
</html>
`;

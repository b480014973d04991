// The page's style, served as /ui.css (the CSP allows no inline style).
export const UI_PAGE_STYLE = `
:root {
  color-scheme: light;
  --ink: #1b1f24;
  --muted: #57606a;
  --line: #d8dee4;
  --paper: #f6f8fa;
  --card: #ffffff;
  --accent: #0b5cad;
  --ok: #1a7f37;
  --ok-bg: #dafbe1;
  --deny: #b42318;
  --deny-bg: #ffebe9;
  --wait: #9a6700;
  --wait-bg: #fff8c5;
  --run-bg: #ddf4ff;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-size: 15px;
  line-height: 1.45;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink); }
code, pre, .input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.86em; }
.visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
.skip-link { position: absolute; left: -999px; top: 0; background: var(--card); padding: 0.5rem 1rem; }
.skip-link:focus { left: 1rem; z-index: 10; }
.masthead {
  display: flex; justify-content: space-between; align-items: center; gap: 1rem;
  padding: 1rem 2rem; background: #0d1117; color: #f0f6fc;
}
.masthead h1 { margin: 0; font-size: 1.5rem; letter-spacing: 0.01em; }
.brand-sub { font-weight: 400; color: #9ecbff; }
.brand-note { margin: 0.2rem 0 0; color: #c9d1d9; font-size: 0.9rem; }
.connection {
  margin: 0; padding: 0.25rem 0.75rem; border-radius: 999px; font-size: 0.85rem;
  background: #30363d; color: #f0f6fc; white-space: nowrap;
}
.connection::before { content: '●'; margin-right: 0.4rem; color: #d29922; }
.connection[data-state='live']::before { color: #3fb950; }
.connection[data-state='down']::before { color: #f85149; }
.sections { background: var(--card); border-bottom: 1px solid var(--line); padding: 0 2rem; }
.sections ul { display: flex; gap: 1.5rem; margin: 0; padding: 0.6rem 0; list-style: none; flex-wrap: wrap; }
.sections a { color: var(--accent); text-decoration: none; font-weight: 500; }
.sections a:hover, .sections a:focus { text-decoration: underline; }
main { padding: 1.25rem 2rem 2rem; display: grid; gap: 1.25rem; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
main:focus { outline: none; }
.panel { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem; min-width: 0; }
#approvals, #calls { grid-column: 1 / -1; }
.panel h2 { margin: 0 0 0.75rem; font-size: 1.1rem; display: flex; align-items: center; gap: 0.5rem; }
.count { font-size: 0.8rem; font-weight: 600; background: var(--paper); border: 1px solid var(--line); border-radius: 999px; padding: 0 0.55rem; }
.panel-approvals { border-color: #d4a72c; box-shadow: 0 0 0 3px #fff8c5; }
.hint, .empty { color: var(--muted); margin: 0 0 0.75rem; font-size: 0.9rem; }
.approvals { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.9rem; grid-template-columns: repeat(auto-fill, minmax(440px, 1fr)); }
.approval { border: 1px solid var(--line); border-left: 4px solid #d4a72c; border-radius: 8px; padding: 0.8rem 1rem; background: #fffdf4; }
.approval-session { margin: 0 0 0.4rem; color: var(--muted); font-size: 0.85rem; }
.approval-title { margin: 0 0 0.5rem; font-size: 1rem; display: flex; gap: 0.5rem; align-items: center; }
.preview { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.2rem 0.8rem; margin: 0 0 0.5rem; }
.preview dt { color: var(--muted); }
.preview dd { margin: 0; overflow-wrap: anywhere; }
.preview pre { margin: 0; white-space: pre-wrap; }
.preview pre.preview-content { max-height: 16rem; overflow: auto; }
.preview-cut { margin: 0.2rem 0 0; color: var(--muted); font-style: italic; }
.note { margin: 0 0 0.4rem; color: var(--wait); font-weight: 600; }
.deadline { margin: 0 0 0.5rem; color: var(--muted); font-size: 0.85rem; }
.reason-label { display: block; font-size: 0.85rem; color: var(--muted); margin-bottom: 0.2rem; }
.reason { width: 100%; padding: 0.4rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; font: inherit; }
.actions { display: flex; gap: 0.5rem; margin-top: 0.6rem; flex-wrap: wrap; }
.button { font: inherit; font-weight: 600; border-radius: 6px; padding: 0.4rem 0.8rem; cursor: pointer; border: 1px solid transparent; }
.button:focus-visible, .link:focus-visible, .reason:focus-visible, select:focus-visible { outline: 3px solid #54aeff; outline-offset: 1px; }
.button:disabled { opacity: 0.55; cursor: default; }
.button-approve { background: var(--ok); color: #fff; }
.button-approve-session { background: var(--card); color: var(--ok); border-color: var(--ok); }
.button-deny { background: var(--deny); color: #fff; margin-left: auto; }
.approval-status { margin: 0.4rem 0 0; font-size: 0.85rem; color: var(--muted); }
.table-wrap { overflow-x: auto; }
.calls { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
.calls th, .calls td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.calls thead th { color: var(--muted); font-weight: 600; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; }
.calls tbody th { font-weight: 600; white-space: nowrap; }
.cell-input { max-width: 22rem; overflow-wrap: anywhere; }
.cell-result { max-width: 20rem; overflow-wrap: anywhere; }
.cell-result .summary { display: block; color: var(--muted); font-size: 0.85em; }
.cell-time, .cell-duration, .cell-session { white-space: nowrap; color: var(--muted); }
.steps { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem; }
.step { font-size: 0.75rem; padding: 0 0.4rem; border-radius: 4px; background: var(--paper); border: 1px solid var(--line); white-space: nowrap; }
.step-approval_requested { background: var(--wait-bg); border-color: #d4a72c; }
.badge { display: inline-block; font-size: 0.75rem; font-weight: 600; padding: 0.05rem 0.5rem; border-radius: 999px; background: var(--paper); border: 1px solid var(--line); margin-right: 0.3rem; }
.badge-succeeded { background: var(--ok-bg); color: var(--ok); border-color: #4ac26b; }
.badge-denied, .badge-failed { background: var(--deny-bg); color: var(--deny); border-color: #ff8182; }
.badge-waiting { background: var(--wait-bg); color: var(--wait); border-color: #d4a72c; }
.badge-running { background: var(--run-bg); color: var(--accent); border-color: #54aeff; }
.badge-action { background: #fbefff; color: #8250df; border-color: #c297ff; }
.badge-cut { background: var(--wait-bg); color: var(--wait); }
.link { font: inherit; background: none; border: none; color: var(--accent); padding: 0; cursor: pointer; text-decoration: underline; }
.filters { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; margin-bottom: 0.75rem; }
.filters label { color: var(--muted); font-size: 0.85rem; }
.filters select { font: inherit; padding: 0.25rem 0.4rem; border: 1px solid var(--line); border-radius: 6px; background: var(--card); }
.timeline { list-style: none; margin: 0; padding: 0; max-height: 24rem; overflow-y: auto; }
.entry { display: grid; grid-template-columns: 5rem 8rem 9rem minmax(0, 1fr) 7rem; gap: 0.5rem; padding: 0.3rem 0; border-bottom: 1px solid var(--line); font-size: 0.85rem; }
.entry-time, .entry-session { color: var(--muted); }
.entry-tool { font-weight: 600; }
.entry-detail { overflow-wrap: anywhere; color: var(--muted); }
.entry-approval_requested .entry-step { color: var(--wait); }
.entry-approval_decided .entry-step { color: var(--accent); }
.policy { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); }
.policy-group h3 { margin: 0 0 0.3rem; font-size: 0.95rem; }
.policy-group dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.15rem 0.6rem; margin: 0; font-size: 0.85rem; }
.policy-group dt { color: var(--muted); }
.policy-group dd { margin: 0; overflow-wrap: anywhere; }
.sessions { list-style: none; margin: 0; padding: 0; }
.session { border-bottom: 1px solid var(--line); padding: 0.4rem 0; }
.session-head { margin: 0; display: flex; gap: 0.6rem; align-items: baseline; }
.session-state { color: var(--muted); font-size: 0.85rem; }
.spills { list-style: none; margin: 0.2rem 0 0; padding: 0; display: flex; gap: 0.8rem; flex-wrap: wrap; font-size: 0.85rem; }
.spill-view h3 { margin: 0.8rem 0 0.2rem; font-size: 0.95rem; }
.spill-text { max-height: 18rem; overflow: auto; background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 0.6rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.footer { padding: 0 2rem 1.5rem; color: var(--muted); font-size: 0.8rem; }
@media (max-width: 900px) {
  main { grid-template-columns: minmax(0, 1fr); padding: 1rem; }
  .entry { grid-template-columns: 4.5rem 1fr; }
}
`;

// The page's state and the helpers every part uses: DOM, fetch with the token, formats.
// Part of /ui.js (see ui-page-script.ts): plain browser JS inside the page's one closure.
export const UI_SCRIPT_COMMON = `
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

`;

import { UI_SCRIPT_APPROVALS } from './ui-script-approvals.js';
import { UI_SCRIPT_COMMON } from './ui-script-common.js';
import { UI_SCRIPT_POLICY } from './ui-script-policy.js';
import { UI_SCRIPT_STREAM } from './ui-script-stream.js';
import { UI_SCRIPT_TIMELINE } from './ui-script-timeline.js';

/**
 * The page's script, served as /ui.js (the CSP allows no inline script): its parts joined once,
 * at module load, inside one closure, so they share its state and nothing leaks to `window`.
 * Strings, not files read at run time: the bundled CLI carries no assets. Plain browser JS: every
 * server value is set with textContent, never parsed as HTML.
 */
export const UI_PAGE_SCRIPT = [
  "'use strict';",
  '(function () {',
  UI_SCRIPT_COMMON,
  UI_SCRIPT_TIMELINE,
  UI_SCRIPT_APPROVALS,
  UI_SCRIPT_POLICY,
  UI_SCRIPT_STREAM,
  '})();',
  '',
].join('\n');

import { describe, expect, it } from 'vitest';
import { UI_SCRIPT_APPROVALS } from './ui-script-approvals.js';
import { UI_SCRIPT_COMMON } from './ui-script-common.js';
import { UI_SCRIPT_POLICY } from './ui-script-policy.js';
import { UI_SCRIPT_STREAM } from './ui-script-stream.js';
import { UI_SCRIPT_TIMELINE } from './ui-script-timeline.js';
import { UI_PAGE_SCRIPT } from './ui-page-script.js';

describe('UI_PAGE_SCRIPT', () => {
  it('is one strict script of every part, in one closure', () => {
    const parts = [
      UI_SCRIPT_COMMON,
      UI_SCRIPT_TIMELINE,
      UI_SCRIPT_APPROVALS,
      UI_SCRIPT_POLICY,
      UI_SCRIPT_STREAM,
    ];

    expect(UI_PAGE_SCRIPT.startsWith("'use strict';\n(function () {\n")).toBe(true);
    for (const part of parts) expect(UI_PAGE_SCRIPT.split(part)).toHaveLength(2);
    // Parsed, not run: a syntax error in any part would break the whole page.
    expect(() => new Function(UI_PAGE_SCRIPT)).not.toThrow();
  });

  it('defines each function once across the parts', () => {
    const names = [...UI_PAGE_SCRIPT.matchAll(/^ {2}function (\w+)\(/gmu)].map((m) => m[1]);

    expect(names.length).toBeGreaterThan(30);
    expect(new Set(names).size).toBe(names.length);
  });

  it('sends the session an approval was shown under with the answer', () => {
    expect(UI_SCRIPT_APPROVALS).toContain('sessionId: approval.sessionId');
  });
});

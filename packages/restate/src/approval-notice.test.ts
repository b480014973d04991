import { describe, expect, it } from 'vitest';

import { toApprovalDecision } from './approval-notice.js';

describe('toApprovalDecision', () => {
  it('approves only an exact approval', () => {
    expect(toApprovalDecision({ outcome: 'approve' })).toEqual({ outcome: 'approve' });
  });

  it.each([
    ['null', null],
    ['a string', 'approve'],
    ['an array', [{ outcome: 'approve' }]],
    ['another outcome', { outcome: 'yes' }],
    ['a capitalised outcome', { outcome: 'Approve' }],
    ['no outcome', {}],
  ])('rejects %s (unknown means deny)', (_name, payload) => {
    expect(toApprovalDecision(payload)).toEqual({ outcome: 'reject', reason: 'approval_invalid' });
  });

  it('keeps a rejection reason as a short printable label', () => {
    const decision = toApprovalDecision({
      outcome: 'reject',
      reason: `\u001b[31mno\u202e\nway${'x'.repeat(500)}`,
    });

    expect(decision).toMatchObject({ outcome: 'reject' });
    const reason = decision.outcome === 'reject' ? (decision.reason ?? '') : '';
    expect(reason.startsWith('[31mno way')).toBe(true);
    expect(reason).not.toMatch(/[\p{Cc}\u202e]/u);
    expect(reason.length).toBeLessThanOrEqual(120);
  });

  it('drops a reason that is not text', () => {
    expect(toApprovalDecision({ outcome: 'reject', reason: 7 })).toEqual({ outcome: 'reject' });
  });
});

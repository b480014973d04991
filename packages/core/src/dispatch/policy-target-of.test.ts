import { describe, expect, it } from 'vitest';
import type { AnyToolDef, PolicyTarget } from '../tool-def.js';
import { policyTargetOf } from './policy-target-of.js';

function toolTargeting(target: unknown): AnyToolDef {
  return { id: 'edit_file', policyTarget: () => target as PolicyTarget } as unknown as AnyToolDef;
}

describe('policyTargetOf (edits)', () => {
  it('copies and freezes the edits, so what the approver saw is what runs', () => {
    const edits = [{ oldText: 'a', newText: 'b', replaceAll: true }];

    const target = policyTargetOf(toolTargeting({ path: 'p', edits }), {});
    edits[0] = { oldText: 'changed', newText: 'later', replaceAll: false };

    expect(target).toEqual({
      path: 'p',
      edits: [{ oldText: 'a', newText: 'b', replaceAll: true }],
    });
    expect(Object.isFrozen(target?.edits)).toBe(true);
    expect(Object.isFrozen(target?.edits?.[0])).toBe(true);
  });

  it.each([
    ['a non-string oldText', [{ oldText: 5, newText: 'b' }]],
    ['a missing newText', [{ oldText: 'a' }]],
    ['a null entry', [null]],
  ])('fails closed on an edit with %s', (_case, edits) => {
    const attempt = () => policyTargetOf(toolTargeting({ path: 'p', edits }), {});

    expect(attempt).toThrow(expect.objectContaining({ reason: 'policy_target_failed' }));
  });
});

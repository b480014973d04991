import { describe, expect, it } from 'vitest';
import type { AnyToolDef, ToolPolicyClass } from '../tool-def.js';
import { isReadOnlyCall } from './is-read-only-call.js';

const BASE: ToolPolicyClass = {
  fsScoped: true,
  fsWrite: true,
  spawnsProcess: false,
  requiresGateApproval: false,
};

function toolWith(policy: Partial<ToolPolicyClass>): AnyToolDef {
  return { policy: { ...BASE, ...policy } } as AnyToolDef;
}

const DRY = toolWith({ readOnlyWhen: 'dryRun' });

describe('isReadOnlyCall', () => {
  it('answers yes only for an own dryRun of exactly true', () => {
    expect(isReadOnlyCall(DRY, { dryRun: true })).toBe(true);
  });

  it.each([
    ['an absent value', {}],
    ['false', { dryRun: false }],
    ['the string "true"', { dryRun: 'true' }],
    ['the number 1', { dryRun: 1 }],
    ['an inherited true', Object.create({ dryRun: true }) as object],
    [
      'a getter that says true',
      Object.defineProperty({}, 'dryRun', { get: () => true, enumerable: true }),
    ],
    ['null args', null],
    ['a string as args', 'dryRun'],
  ])('keeps the call governed for %s', (_case, args) => {
    expect(isReadOnlyCall(DRY, args)).toBe(false);
  });

  it('never makes a call of a tool without readOnlyWhen a read', () => {
    expect(isReadOnlyCall(toolWith({}), { dryRun: true })).toBe(false);
  });

  it('fails closed on a readOnlyWhen that is not a string', () => {
    const tool = toolWith({ readOnlyWhen: 5 as unknown as string });

    expect(isReadOnlyCall(tool, { 5: true })).toBe(false);
  });
});

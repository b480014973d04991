import { describe, expect, it } from 'vitest';
import type { AnyToolDef, ToolPolicyClass } from '../tool-def.js';
import { approvalActionClass } from './approval-action-class.js';

const none: ToolPolicyClass = {
  fsScoped: false,
  spawnsProcess: false,
  requiresGateApproval: false,
};

function toolWith(policy: Partial<ToolPolicyClass>, withTarget = false): AnyToolDef {
  return {
    id: 't',
    source: 'plugin',
    description: '',
    llmVisibleParams: {},
    parseArgs: (raw) => raw,
    policy: { ...none, ...policy },
    dispatch: async () => undefined,
    ...(withTarget ? { policyTarget: () => ({ command: 'x' }) } : {}),
  };
}

describe('approvalActionClass', () => {
  it.each([
    ['a write', toolWith({ fsScoped: true, fsWrite: true }), 'fs_write'],
    ['a read', toolWith({ fsScoped: true }), undefined],
    ['http egress', toolWith({ egress: 'http' }, true), 'egress'],
    ['search egress', toolWith({ egress: 'search' }), 'egress'],
    ['mcp egress', toolWith({ egress: 'mcp' }), 'egress'],
    ['a model-chosen command', toolWith({ spawnsProcess: true }, true), 'process'],
    ['a pre-approved command', toolWith({ spawnsProcess: true }), undefined],
    ['an os action', toolWith({ os: true }), 'os'],
    ['a pure tool', toolWith({}), undefined],
  ])('classifies %s', (_case, tool, expected) => {
    expect(approvalActionClass(tool)).toBe(expected);
  });
});

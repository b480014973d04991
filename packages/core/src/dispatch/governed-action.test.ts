import { describe, expect, it } from 'vitest';
import type { PolicyTarget, ToolPolicyClass } from '../tool-def.js';
import { governedAction } from './governed-action.js';
import { stubTool } from './test-support/stub-tools.js';

describe('governedAction', () => {
  it.each<[string, Partial<ToolPolicyClass>, PolicyTarget | undefined, string | undefined]>([
    ['a read', { fsScoped: true }, { path: 'a' }, undefined],
    ['a write', { fsScoped: true, fsWrite: true }, { path: 'a' }, 'fs_write'],
    ['http egress', { egress: 'http' }, { url: 'https://a.example' }, 'egress'],
    ['search egress', { egress: 'search' }, undefined, 'egress'],
    ['mcp egress', { egress: 'mcp' }, undefined, 'egress'],
    ['an os action', { os: true }, undefined, 'os'],
    ['a model-controlled command', { spawnsProcess: true }, { command: 'ls' }, 'process'],
    ['a config-pinned command (git_status)', { spawnsProcess: true }, undefined, undefined],
    ['a delegate (invoke_agent)', {}, undefined, undefined],
  ])('classes %s as %s', (_case, policy, target, expected) => {
    const { tool } = stubTool({ policy });

    expect(governedAction(tool, target)).toBe(expected);
  });
});

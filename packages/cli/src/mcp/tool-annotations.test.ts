import { defineTool } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LOCAL_TOOLS } from '../session/local-tools.js';
import { toolAnnotations, UNKNOWN_EFFECT_ANNOTATIONS } from './tool-annotations.js';

const plugin = (policy: Parameters<typeof defineTool>[0]['policy']) =>
  defineTool({
    id: 'plugin_x_tool',
    description: 'A plugin tool.',
    args: z.strictObject({}),
    policy,
    dispatch: () => Promise.resolve('ok'),
  });

describe('toolAnnotations', () => {
  it('gives every local tool hints of its own: its effect, or the worst case when it has none', () => {
    const withoutEffect = LOCAL_TOOLS.filter((tool) => tool.policy.effect === undefined);

    expect(withoutEffect.map((tool) => tool.id)).toEqual(['invoke_agent', 'mcp_call']);
    for (const tool of withoutEffect) {
      expect(toolAnnotations(tool)).toEqual(UNKNOWN_EFFECT_ANNOTATIONS);
    }
  });

  it('assumes the worst of a plugin tool that gives no effect', () => {
    const tool = plugin({ fsScoped: false, spawnsProcess: false, requiresGateApproval: false });

    expect(toolAnnotations(tool)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it("takes a plugin tool's own effect", () => {
    const tool = plugin({
      fsScoped: false,
      spawnsProcess: false,
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
    });

    expect(toolAnnotations(tool)).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('never believes a read-only claim of a tool whose flags say it writes', () => {
    const tool = plugin({
      fsScoped: true,
      fsWrite: true,
      spawnsProcess: false,
      requiresGateApproval: false,
      effect: { readOnly: true, destructive: false, idempotent: true },
    });

    expect(toolAnnotations(tool)).toEqual(UNKNOWN_EFFECT_ANNOTATIONS);
  });
});

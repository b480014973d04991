import { BUILTIN_TOOLS } from '@toolhost/core';
import { describe, expect, it } from 'vitest';
import { toolAnnotations } from './tool-annotations.js';

const byId = new Map(BUILTIN_TOOLS.map((tool) => [tool.id, tool] as const));

describe('toolAnnotations', () => {
  it.each([
    ['read_file', { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ['list_directory', { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ['git_status', { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ['write_file', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }],
    ['run_command', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }],
    ['git_commit', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }],
    ['http_request', { readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
    ['web_search', { readOnlyHint: true, destructiveHint: false, openWorldHint: true }],
    ['mcp_call', { readOnlyHint: false, destructiveHint: true, openWorldHint: true }],
    ['notify', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }],
  ])('hints %s from its policy class', (id, expected) => {
    const tool = byId.get(id);
    if (tool === undefined) throw new Error(`no built-in ${id}`);

    expect(toolAnnotations(tool)).toEqual(expected);
  });
});

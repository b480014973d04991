import { describe, expect, it } from 'vitest';
import { MAX_TOOL_ID_LENGTH, toMcpToolId } from './mcp-tool-id.js';

describe('toMcpToolId', () => {
  it.each([
    ['a plain name', 'fs', 'read', 'mcp_fs_read'],
    ['dots and slashes', 'fs', 'files/read.all', 'mcp_fs_files_read_all'],
    ['spaces and unicode', 'fs', 'lire fichier é', 'mcp_fs_lire_fichier__'],
    ['a prototype name', 'fs', '__proto__', 'mcp_fs___proto__'],
  ])('sanitises %s', (_case, server, tool, expected) => {
    expect(toMcpToolId(server, tool)).toBe(expected);
  });

  it('cuts the id to 128 characters', () => {
    const id = toMcpToolId('fs', 'x'.repeat(500));

    expect(id).toHaveLength(MAX_TOOL_ID_LENGTH);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

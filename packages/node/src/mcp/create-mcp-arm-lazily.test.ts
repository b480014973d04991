import { describe, expect, it } from 'vitest';
import { createMcpArmLazily, McpSdkMissingError } from './create-mcp-arm-lazily.js';

const OPTIONS = { servers: {} } as unknown as Parameters<typeof createMcpArmLazily>[0];

// What Node throws for an import of a package that is not installed.
function notFound(specifier: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${specifier}' imported from /somewhere/discover.js`),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

describe('createMcpArmLazily', () => {
  it('says the optional MCP SDK is missing, naming no path', async () => {
    const attempt = createMcpArmLazily(OPTIONS, () =>
      Promise.reject(notFound('@modelcontextprotocol/sdk')),
    );

    await expect(attempt).rejects.toBeInstanceOf(McpSdkMissingError);
    await expect(attempt).rejects.toMatchObject({ code: 'mcp_sdk_missing' });
    await expect(attempt).rejects.toThrow(/npm install @modelcontextprotocol\/sdk/);
    await expect(attempt).rejects.not.toThrow(/somewhere/);
  });

  it('passes any other load failure through unchanged', async () => {
    const other = notFound('left-pad');

    await expect(createMcpArmLazily(OPTIONS, () => Promise.reject(other))).rejects.toBe(other);
  });
});

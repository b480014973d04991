import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import rootConfig from '../../vitest.config.js';

// The MCP conformance lane: the official server suite against a real `toolhost serve --http`.
// `@modelcontextprotocol/conformance` needs Node 22, so `test:mcp-conformance` runs this config
// under scripts/node22.mjs; its `*.conformance.ts` files are outside the main suite's globs.
export default defineConfig({
  ...rootConfig,
  test: {
    ...rootConfig.test,
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['packages/cli/test/conformance/**/*.conformance.ts'],
  },
});

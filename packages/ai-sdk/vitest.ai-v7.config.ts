import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import rootConfig from '../../vitest.config.js';

const aiV7 = (path: string) =>
  fileURLToPath(new URL(`../../node_modules/ai-v7/${path}`, import.meta.url));
const rootAliases = rootConfig.resolve?.alias;
if (!Array.isArray(rootAliases)) throw new TypeError('the root vitest config lists its aliases');

// The second lane: this package's tests against `ai@7`, installed as the alias package `ai-v7`.
// The alias points at ai-v7's own files, so its nested deps (`@ai-sdk/provider-utils` 5 …) resolve
// from `node_modules/ai-v7/node_modules`, never from ai@6's. ai@7 needs Node 22: `test:ai-v7`.
export default defineConfig({
  ...rootConfig,
  resolve: {
    alias: [
      { find: /^ai$/, replacement: aiV7('dist/index.js') },
      { find: /^ai\/test$/, replacement: aiV7('dist/test/index.js') },
      ...rootAliases,
    ],
  },
  test: {
    ...rootConfig.test,
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['packages/ai-sdk/src/**/*.test.ts', 'packages/ai-sdk/test/**/*.test.ts'],
  },
});

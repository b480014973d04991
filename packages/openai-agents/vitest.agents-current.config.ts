import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import rootConfig from '../../vitest.config.js';

const current = (path: string) =>
  fileURLToPath(new URL(`../../node_modules/openai-agents-v0-20/${path}`, import.meta.url));

// The second lane: this package's tests against `@openai/agents@0.20`, installed as the alias
// package `openai-agents-v0-20`. The aliases point at its own files, so `@openai/agents-core` and
// `openai@7` resolve from `openai-agents-v0-20/node_modules`, never from 0.14's copies; a test's
// own `openai` import gets the same nested copy. openai@7 needs Node 22: `test:agents-current`.
// Spread, not `mergeConfig`: that would append to the root's `include` and run every package.
export default defineConfig({
  ...rootConfig,
  resolve: {
    alias: [
      { find: /^@openai\/agents$/, replacement: current('dist/index.mjs') },
      { find: /^openai$/, replacement: current('node_modules/openai/index.mjs') },
      ...(rootConfig.resolve?.alias as { find: RegExp; replacement: string }[]),
    ],
  },
  test: {
    ...rootConfig.test,
    include: [
      'packages/openai-agents/src/**/*.test.ts',
      'packages/openai-agents/test/**/*.test.ts',
    ],
    root: fileURLToPath(new URL('../..', import.meta.url)),
  },
});

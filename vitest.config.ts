import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The longest files (each installs packed tarballs and compiles native addons for minutes) start
// first, so they overlap the rest of the suite instead of being its tail on a fresh clone, where
// vitest has no timings yet to order by.
const LONGEST_FIRST = [
  'test/packaging/readme-install.test.ts',
  'test/packaging/packed-install.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = LONGEST_FIRST.findIndex((long) => file.moduleId.endsWith(long));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

const workspacePackages = [
  'core',
  'node',
  'cli',
  'ai-sdk',
  'openai-agents',
  'anthropic',
  'restate',
  'otel',
];

// Workspace packages resolve to their TypeScript sources, so tests never need a build. An alias,
// not the `source` export condition: vitest passes SSR conditions to Node as `--conditions`, and
// third-party packages (eventsource-parser under `ai`) publish a `source` condition of raw .ts
// that Node cannot load.
export default defineConfig({
  resolve: {
    alias: [
      ...workspacePackages.map((name) => ({
        find: new RegExp(`^@toolhost/${name}$`),
        replacement: fileURLToPath(new URL(`packages/${name}/src/index.ts`, import.meta.url)),
      })),
      // The light entry of @toolhost/node (what assembling a host needs): its sources too.
      {
        find: /^@toolhost\/node\/host$/,
        replacement: fileURLToPath(new URL('packages/node/src/host.ts', import.meta.url)),
      },
      // The OTLP export entry of @toolhost/otel, which the CLI imports lazily.
      {
        find: /^@toolhost\/otel\/otlp$/,
        replacement: fileURLToPath(new URL('packages/otel/src/otlp.ts', import.meta.url)),
      },
    ],
  },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'bench/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
  },
});

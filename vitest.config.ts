import { readFileSync } from 'node:fs';
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

interface ManifestExports {
  readonly exports: Record<string, string | { readonly source?: string }>;
}

// Every entry a workspace package exports with a `source` condition (`@toolhost/core`,
// `@toolhost/core/lowering`, `@toolhost/node/host`, `@toolhost/otel/otlp` …), read from its
// package.json so a new subpath needs no line here.
function sourceAliases(name: string): { find: RegExp; replacement: string }[] {
  const dir = new URL(`packages/${name}/`, import.meta.url);
  const manifest = JSON.parse(
    readFileSync(new URL('package.json', dir), 'utf8'),
  ) as ManifestExports;
  return Object.entries(manifest.exports).flatMap(([key, target]) => {
    if (typeof target !== 'object' || target.source === undefined) return [];
    const specifier = `@toolhost/${name}${key.slice(1)}`.replace(/[/.-]/g, '\\$&');
    return [
      {
        find: new RegExp(`^${specifier}$`),
        replacement: fileURLToPath(new URL(target.source, dir)),
      },
    ];
  });
}

// Workspace packages resolve to their TypeScript sources, so tests never need a build. An alias,
// not the `source` export condition: vitest passes SSR conditions to Node as `--conditions`, and
// third-party packages (eventsource-parser under `ai`) publish a `source` condition of raw .ts
// that Node cannot load.
export default defineConfig({
  resolve: {
    alias: workspacePackages.flatMap(sourceAliases),
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

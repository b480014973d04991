import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
  },
});

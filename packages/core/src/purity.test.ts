import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const coreRoot = fileURLToPath(new URL('..', import.meta.url));

describe('core purity', () => {
  it('depends on zod and nothing else at runtime', () => {
    const manifest = JSON.parse(readFileSync(`${coreRoot}package.json`, 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };

    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['zod']);
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
  });

  it('typechecks with no Node or DOM types (tsconfig.pure.json)', async () => {
    const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

    const run = promisify(execFile)(
      process.execPath,
      [tsc, '-p', `${coreRoot}tsconfig.pure.json`, '--noEmit'],
      {
        cwd: coreRoot,
      },
    );

    await expect(run).resolves.toBeDefined();
  }, 60_000);
});

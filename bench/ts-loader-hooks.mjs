// Module hooks for the bench loader (`ts-loader.mjs`): `.js` specifiers find their `.ts`
// source (NodeNext style), and TypeScript is compiled by esbuild without `keepNames`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { transform } from 'esbuild';

const TS = /\.[cm]?ts$/;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    // Only a relative or absolute `.js` that is missing may name its `.ts` source.
    const local =
      specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:');
    if (!local || !/\.[cm]?js$/.test(specifier) || error?.code !== 'ERR_MODULE_NOT_FOUND')
      throw error;
    return nextResolve(specifier.replace(/js$/, 'ts'), context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !TS.test(new URL(url).pathname)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const { code } = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: url.endsWith('.cts') ? 'cjs' : 'esm',
    target: 'node20',
    sourcefile: path,
    sourcemap: 'inline',
    keepNames: false,
  });
  return { format: url.endsWith('.cts') ? 'commonjs' : 'module', source: code, shortCircuit: true };
}

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEBUG_LOG = fileURLToPath(new URL('./debug-log.ts', import.meta.url));
const TSX_LOADER = fileURLToPath(
  new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url),
);

// util.debuglog reads NODE_DEBUG once, at process start: each case is its own process.
function logCauseChain(nodeDebug: string | undefined): string {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  if (nodeDebug === undefined) delete env['NODE_DEBUG'];
  else env['NODE_DEBUG'] = nodeDebug;
  const script = [
    `const { debugError } = await import(${JSON.stringify(DEBUG_LOG)});`,
    "const root = Object.assign(new Error('root cause'), { code: 'EROOT' });",
    "const middle = new Error('middle', { cause: root });",
    "debugError('toolhost test', new Error('outer', { cause: middle }));",
  ].join('\n');
  const child = spawnSync(
    process.execPath,
    ['--import', TSX_LOADER, '--input-type=module', '-e', script],
    { env, encoding: 'utf8' },
  );
  return child.stderr;
}

describe('debugError', () => {
  it('prints the stack and the whole cause chain under NODE_DEBUG=toolhost', () => {
    const stderr = logCauseChain('toolhost');

    expect(stderr).toMatch(/^TOOLHOST \d+: toolhost test: Error: outer\n {4}at /);
    expect(stderr).toContain('[cause]: Error: middle');
    expect(stderr).toContain('[cause]: Error: root cause');
    expect(stderr).toContain("code: 'EROOT'");
  });

  it.each([
    ['unset', undefined],
    ['another module', 'http,net'],
  ])('prints nothing with NODE_DEBUG %s', (_case, nodeDebug) => {
    const stderr = logCauseChain(nodeDebug);

    expect(stderr).not.toContain('outer');
  });
});

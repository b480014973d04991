import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectContainment } from './detect-containment.js';

// Where util-linux makes a PID namespace without a user namespace (root), so must the addon.
const rootMayUnshare =
  process.platform === 'linux' &&
  spawnSync('unshare', ['--pid', '--fork', '--', 'true'], { stdio: 'ignore' }).status === 0;
const missingAddon = async (): Promise<undefined> => undefined;

describe.runIf(rootMayUnshare)('pid-namespace detection', () => {
  it('uses the in-process addon where it works', async () => {
    const detected = await detectContainment('auto');

    expect(detected).toMatchObject({ mode: 'pid-namespace', mechanism: 'in-process' });
    expect(detected).not.toHaveProperty('unshare');
    expect(detected).toHaveProperty('inProcess.enterFreshPidNamespace');
  });

  it('falls back to util-linux unshare when the addon is missing', async () => {
    const detected = await detectContainment('auto', { loadPidNamespace: missingAddon });

    expect(detected).toMatchObject({ mode: 'pid-namespace', mechanism: 'unshare' });
    expect(detected).toMatchObject({ unshare: { file: expect.stringMatching(/\/unshare$/) } });
  });

  it('uses util-linux unshare when it is forced', async () => {
    const detected = await detectContainment('pid-namespace', { mechanism: 'unshare' });

    expect(detected).toMatchObject({ mechanism: 'unshare' });
    expect(detected).not.toHaveProperty('inProcess');
  });

  it('falls to the next mode when a forced in-process mechanism cannot load', async () => {
    const detected = await detectContainment('auto', {
      mechanism: 'in-process',
      loadPidNamespace: missingAddon,
    });

    expect(detected.mode).toBe('proc-walk');
  });

  it('keeps a weaker preference: proc-walk never loads the addon', async () => {
    let loaded = false;
    const detected = await detectContainment('proc-walk', {
      loadPidNamespace: async () => {
        loaded = true;
        return undefined;
      },
    });

    expect(detected.mode).toBe('proc-walk');
    expect(loaded).toBe(false);
  });

  it('falls back to unshare in a user namespace without CAP_SYS_ADMIN', () => {
    const module = fileURLToPath(new URL('./detect-containment.ts', import.meta.url));
    const script = `import { detectContainment } from ${JSON.stringify(module)};
      const { mode, mechanism, unshare } = await detectContainment('auto');
      console.log(JSON.stringify({ mode, mechanism, user: unshare?.args.includes('--user') }));`;

    const printed = execFileSync(
      'setpriv',
      [
        '--inh-caps=-sys_admin',
        '--bounding-set=-sys_admin',
        '--',
        process.execPath,
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8' },
    );

    expect(JSON.parse(printed)).toEqual({
      mode: 'pid-namespace',
      mechanism: 'unshare',
      user: true,
    });
  });
});

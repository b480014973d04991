import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOLS, createToolRegistry, type ToolDispatchContext } from '@toolhost/core';
import type { ToolHostCallOptions } from '@toolhost/core/host';
import { buildChildEnv, IDEMPOTENCY_KEY_ENV, isRefusedEnvName } from './build-child-env.js';
import { createProcessArm, type ProcessArm } from './create-process-arm.js';

const KEY = 'th1-9b2e4f60';

describe('buildChildEnv and the idempotency key', () => {
  it('sets the key last, over nothing a caller declared', () => {
    expect(buildChildEnv({}, { CI: '1' }, 'run_command', KEY)[IDEMPOTENCY_KEY_ENV]).toBe(KEY);
  });

  it('adds nothing without a key, and never inherits an ambient one', () => {
    const env = buildChildEnv({ PATH: '/usr/bin', [IDEMPOTENCY_KEY_ENV]: 'ambient' }, {});

    expect(Object.keys(env)).not.toContain(IDEMPOTENCY_KEY_ENV);
  });

  it.each([IDEMPOTENCY_KEY_ENV, 'toolhost_idempotency_key'])(
    'refuses %s in configured env: a spoofed key could settle another call',
    (name) => {
      expect(isRefusedEnvName(name)).toBe(true);
      expect(() => buildChildEnv({}, { [name]: 'spoofed' }, 'run_command', KEY)).toThrow(
        expect.objectContaining({ code: 'tool_denied', reason: 'env_not_allowed' }),
      );
    },
  );
});

// Real children: on Linux inside the real bwrap sandbox (as the other process tests run), and
// through the registry, so run_command's forwarding of ctx.hostCallOptions is exercised too.
describe.each(process.platform === 'linux' ? (['required', 'off'] as const) : (['off'] as const))(
  'a real child process, sandbox %s',
  (sandbox) => {
    let root = '';
    let arm: ProcessArm;

    beforeAll(async () => {
      root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-idem-')));
      arm = createProcessArm({ root, sandbox, timeoutMs: 20_000 });
    });
    afterAll(() => rm(root, { recursive: true, force: true }));

    const context = (
      hostCallOptions?: ToolHostCallOptions,
      env?: Record<string, string>,
    ): ToolDispatchContext => ({
      nodeId: 'test',
      grantedToolIds: new Set(['run_command']),
      config: { parameters: env === undefined ? {} : { env } },
      toolPolicy: { allowedCommands: ['printenv'], allowedCommandGlobs: ['printenv *'] },
      fsScope: 'sandboxed',
      gateApproved: false,
      ...(hostCallOptions === undefined ? {} : { hostCallOptions }),
    });
    const printKey = async (hostCallOptions?: ToolHostCallOptions) => {
      const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: { process: arm } });
      const outcome = await registry.dispatch(
        {
          id: 'c',
          name: 'run_command',
          args: { command: 'printenv', args: [IDEMPOTENCY_KEY_ENV] },
        },
        context(hostCallOptions),
      );
      return outcome.output as { exitCode: number; stdout: string };
    };

    it('sees TOOLHOST_IDEMPOTENCY_KEY when the call has a key', async () => {
      const result = await printKey({ idempotencyKey: KEY });

      expect(result).toMatchObject({ exitCode: 0, stdout: `${KEY}\n` });
    });

    it('sees no such variable without one', async () => {
      process.env[IDEMPOTENCY_KEY_ENV] = 'ambient';
      try {
        const result = await printKey({});

        // printenv exits 1 for an unset name.
        expect(result).toMatchObject({ exitCode: 1, stdout: '' });
      } finally {
        delete process.env[IDEMPOTENCY_KEY_ENV];
      }
    });

    it('refuses a configured env that names it', async () => {
      const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host: { process: arm } });

      await expect(
        registry.dispatch(
          { id: 'c', name: 'run_command', args: { command: 'printenv', args: [] } },
          context({ idempotencyKey: KEY }, { [IDEMPOTENCY_KEY_ENV]: 'spoofed' }),
        ),
      ).rejects.toMatchObject({ code: 'tool_denied', reason: 'env_not_allowed' });
    });
  },
);

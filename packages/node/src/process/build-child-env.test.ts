import { describe, expect, it } from 'vitest';
import { buildChildEnv, isRefusedEnvName } from './build-child-env.js';

describe('buildChildEnv', () => {
  it('passes only the base names, by value, plus the fixed no-pager values', () => {
    const env = buildChildEnv(
      { PATH: '/usr/bin', HOME: '/home/u', SECRET_TOKEN: 'x', LANG: undefined },
      {},
    );

    expect({ ...env }).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'safe.bareRepository',
      GIT_CONFIG_VALUE_0: 'explicit',
      GIT_CONFIG_KEY_1: 'core.fsmonitor',
      GIT_CONFIG_VALUE_1: 'false',
    });
  });

  it('keeps a declared __proto__ as a plain variable', () => {
    const declared = JSON.parse('{"__proto__": "x"}') as Record<string, string>;

    const env = buildChildEnv({}, declared);

    expect(Object.getPrototypeOf(env)).toBeNull();
    expect(Object.keys(env)).toContain('__proto__');
  });

  it('drops empty and relative PATH entries', () => {
    const env = buildChildEnv({ PATH: '.:/usr/bin::bin:/bin' }, {});

    expect(env['PATH']).toBe('/usr/bin:/bin');
  });

  it('merges declared variables on top', () => {
    const env = buildChildEnv({ PATH: '/usr/bin' }, { NODE_ENV: 'test', CI: '1' });

    expect(env).toMatchObject({ NODE_ENV: 'test', CI: '1', PATH: '/usr/bin' });
  });

  it.each([
    'LD_PRELOAD',
    'ld_preload',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'NODE_OPTIONS',
    'NODE_PATH',
    'GIT_SSH_COMMAND',
    'GIT_DIR',
    'git_exec_path',
    'PATH',
    'Path',
    'HOME',
    'BASH_ENV',
    'ENV',
    'IFS',
    'PAGER',
    'EDITOR',
    'VISUAL',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'npm_config_script_shell',
    'NPM_CONFIG_USERCONFIG',
    'PERL5OPT',
    'RUBYOPT',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'CLASSPATH',
    'XDG_CONFIG_HOME',
    'SSH_ASKPASS',
    'PROMPT_COMMAND',
    'BASH_FUNC_ls%%',
    'GCONV_PATH',
    'LESSOPEN',
    'TOOLHOST_RUN_TOKEN',
    'A=B',
    '',
  ])('refuses a declared %s as a fatal env_not_allowed', (name) => {
    const attempt = (): unknown => buildChildEnv({}, { [name]: 'x' });

    expect(attempt).toThrow(
      expect.objectContaining({
        code: 'tool_denied',
        reason: 'env_not_allowed',
        recoverable: false,
      }),
    );
  });

  it('refuses a value carrying NUL', () => {
    expect(() => buildChildEnv({}, { FOO: 'a\0b' })).toThrow(
      expect.objectContaining({ reason: 'env_not_allowed' }),
    );
  });

  it.each(['NODE_ENV', 'CI', 'RUST_LOG', 'DEBUG', 'TZ', 'LANG'])('allows %s', (name) => {
    expect(isRefusedEnvName(name)).toBe(false);
  });
});

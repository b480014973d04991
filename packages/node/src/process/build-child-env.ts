import { ToolPolicyError } from '@toolhost/core';

/** Host variables a child inherits, by value, only when the host has them set. */
export const BASE_ENV_NAMES = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TERM',
] as const;

/**
 * Fixed on top of the base: nothing a child runs may page, prompt or wait on a terminal. Every
 * git also gets command-line-strength config against a repository's own programs: a directory
 * the agent wrote may look like a bare repository with a hostile config, and `core.fsmonitor`
 * runs a program on `status`.
 */
export const FIXED_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'safe.bareRepository',
  GIT_CONFIG_VALUE_0: 'explicit',
  GIT_CONFIG_KEY_1: 'core.fsmonitor',
  GIT_CONFIG_VALUE_1: 'false',
};

/** The variable a journaled call's child finds its idempotency key in. */
export const IDEMPOTENCY_KEY_ENV = 'TOOLHOST_IDEMPOTENCY_KEY';

/**
 * Builds a child's environment: the spec's short base list from `hostEnv` (never the whole
 * ambient env), the fixed no-pager values, then the declared variables, then a journaled call's
 * idempotency key. A declared variable on the refused set is a fatal denial, never silently
 * stripped: the caller asked for a hijack.
 */
export function buildChildEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
  declaredEnv: Readonly<Record<string, string>>,
  toolId = 'run_command',
  idempotencyKey?: string,
): Record<string, string> {
  // No prototype: a declared `__proto__` is a (harmless) variable, not a prototype write.
  const env = Object.create(null) as Record<string, string>;
  for (const name of BASE_ENV_NAMES) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = name === 'PATH' ? absoluteEntries(value) : value;
  }
  Object.assign(env, FIXED_ENV);
  for (const [name, value] of Object.entries(declaredEnv)) {
    if (isRefusedEnvName(name) || typeof value !== 'string' || value.includes('\0')) {
      throw new ToolPolicyError(toolId, 'env_not_allowed');
    }
    env[name] = value;
  }
  // Set last, from the dispatch's trusted call options only: no config or model can name it.
  if (idempotencyKey !== undefined) env[IDEMPOTENCY_KEY_ENV] = idempotencyKey;
  return env;
}

// An empty or relative PATH entry searches the child's cwd, which the model may have written.
function absoluteEntries(searchPath: string): string {
  return searchPath
    .split(':')
    .filter((entry) => entry.startsWith('/'))
    .join(':');
}

/** True for a name a caller may never set: loaders, interpreters' hooks, pagers, git, shells. */
export function isRefusedEnvName(name: string): boolean {
  // A name outside the portable shape could smuggle `=` or NUL into the environment block.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return true;
  const upper = name.toUpperCase();
  return REFUSED_NAMES.has(upper) || REFUSED_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

// Prefixes: each family loads code, rewrites a tool's config or redirects its helpers.
const REFUSED_PREFIXES: readonly string[] = [
  'LD_', // glibc loader: LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT
  'DYLD_', // macOS loader
  'GIT_', // GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_DIR, GIT_CONFIG_* …
  'PYTHON', // PYTHONPATH, PYTHONSTARTUP, PYTHONHOME
  'NPM_CONFIG_', // npm_config_script_shell, npm_config_userconfig …
  'PERL5', // PERL5OPT, PERL5LIB
  'PERLLIB',
  'RUBY', // RUBYOPT, RUBYLIB
  'BASH_FUNC_', // exported bash functions run before any script
  'LESS', // LESSOPEN/LESSCLOSE run a preprocessor
  'LUA_', // LUA_INIT runs code
  'SSH_', // SSH_ASKPASS, SSH_AUTH_SOCK (another user's agent)
  'YARN_',
  'PNPM_',
  'CARGO_', // CARGO_BUILD_RUSTC_WRAPPER, CARGO_HOME config
  'RUSTC',
  'DOCKER_', // DOCKER_HOST, DOCKER_CONFIG
];

const REFUSED_NAMES: ReadonlySet<string> = new Set([
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'NODE_EXTRA_CA_CERTS',
  'NODE_TLS_REJECT_UNAUTHORIZED',
  'BASH_ENV',
  'ENV',
  'IFS',
  'CDPATH',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'ZDOTDIR',
  'SHELL',
  'PATH',
  'HOME',
  'PAGER',
  'MANPAGER',
  'MANOPT',
  'EDITOR',
  'VISUAL',
  'BROWSER',
  'SUDO_ASKPASS',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
  'GCONV_PATH', // glibc loads iconv modules from here
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'RES_OPTIONS',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'GOFLAGS', // -toolexec
  'RIPGREP_CONFIG_PATH', // --pre from a config file
  'CURL_HOME',
  'WGETRC',
  'TERMINFO',
  'TERMINFO_DIRS',
  'EMACSLOADPATH',
  'VIMINIT',
  'EXINIT',
  'INPUTRC',
  'TOOLHOST_RUN_TOKEN', // the host's own containment marker
  'TOOLHOST_IDEMPOTENCY_KEY', // the journal's key: a spoofed one could settle another call
]);

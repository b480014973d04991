import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { SHELL_STARTUP_FILES } from '@toolhost/node/host';

/** What the protected-path rule needs to know about this host. */
export interface ProtectedPathContext {
  readonly root: string;
  readonly configFile?: string;
  readonly stateDir?: string;
  /** Further files no tool may change unasked, e.g. this run's audit log. */
  readonly files?: readonly string[];
}

// Names whose modification changes what runs next, or where secrets go, without the user reviewing
// it: `auto` never writes them without a human, even where the host's write floor would allow it.
// Matched case-folded against EVERY component of the path (a directory or the file itself), so a
// nested `AGENTS.md` or `sub/.envrc`, read when the tool starts there, counts too. `name*` is a
// prefix and `*name` a suffix. What stays writable, on purpose: ordinary sources the user reviews
// and runs knowingly (`Makefile`, `package.json`, `Dockerfile`, build and lint configs), and
// version pins that only choose among released toolchains (`.nvmrc`, `.python-version`).
const PROTECTED_NAMES: readonly string[] = [
  // Version control: hooks, config and attributes run filters and hooks on the next git command.
  '.git',
  '.gitconfig',
  '.gitattributes',
  '.gitmodules',
  '.lfsconfig',
  '.githooks',
  '.git-hooks',
  // Git hook managers and the commands they run on commit or push.
  '.husky',
  '.pre-commit-config.yaml',
  'lefthook*',
  '.lefthook*',
  '.simple-git-hooks*',
  'simple-git-hooks*',
  '.overcommit.yml',
  '.lintstagedrc*',
  'lint-staged.config.*',
  '.commitlintrc*',
  'commitlint.config.*',
  // CI and deploy pipelines: run on the next push, with the repository's secrets.
  '.github',
  '.gitlab',
  '.gitlab-ci.yml',
  '.gitea',
  '.forgejo',
  '.circleci',
  'jenkinsfile*',
  '.travis.yml',
  'azure-pipelines.yml',
  'azure-pipelines.yaml',
  '.azure-pipelines',
  'bitbucket-pipelines.yml',
  '.buildkite',
  '.drone.yml',
  '.woodpecker',
  '.woodpecker.yml',
  '.woodpecker.yaml',
  'appveyor.yml',
  '.appveyor.yml',
  '.cirrus.yml',
  '.semaphore',
  '.tekton',
  '.teamcity',
  'bitrise.yml',
  'codemagic.yaml',
  'cloudbuild.yaml',
  'cloudbuild.yml',
  'buildspec.yml',
  'netlify.toml',
  'vercel.json',
  // Coding agents: MCP servers, hooks and allow-lists start commands on the next session, outside
  // any sandbox; their instruction files steer that session, so they are protected too.
  '.mcp.json',
  '.claude*',
  'claude.md',
  'claude.local.md',
  'agents.md',
  '.cursor*',
  '.gemini*',
  'gemini.md',
  '.codex*',
  '.aider*',
  '.continue*',
  '.windsurf*',
  '.codeium',
  '.amazonq',
  '.cline*',
  '.roo',
  '.roomodes',
  '.rooignore',
  '.kilocode*',
  '.opencode*',
  'opencode.json*',
  '.crush*',
  'crush.json',
  '.junie',
  '.kiro',
  '.qwen',
  '.trae',
  '.augment*',
  '.goose*',
  '.openhands*',
  // Editors: workspace tasks run on folder open, settings pick interpreters and MCP servers,
  // local vim/emacs files are evaluated on open.
  '.vscode',
  '*.code-workspace',
  '.idea',
  '.fleet',
  '.vs',
  '.zed',
  '.exrc',
  '.vimrc',
  '.nvimrc',
  '.nvim.lua',
  '.lazy.lua',
  '.dir-locals*',
  // Development environments: run on `cd`, on container or workspace open, or pick the binaries
  // every later command runs (`.tool-versions` accepts `path:` versions).
  '.envrc',
  '.env',
  '.env.*',
  '.devcontainer',
  '.devcontainer.json',
  '.gitpod*',
  '.replit',
  'replit.nix',
  '.idx',
  'devbox.json',
  'flake.nix',
  'shell.nix',
  'devenv.nix',
  'devenv.yaml',
  'devenv.local.nix',
  '.tool-versions',
  '.mise*',
  'mise',
  'mise.*',
  '.rtx.toml',
  // Package managers: registries, credentials, and code run on every install or invocation.
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.yarn',
  '.pnpmfile*',
  'bunfig.toml',
  '.pypirc',
  '.cargo',
  '.m2',
  '.gradle',
  // Shells and per-user config: startup files run in every new shell; `.config` holds fish, git,
  // mise and CLI credentials alike.
  ...SHELL_STARTUP_FILES,
  '.config',
  // Credentials and the tools that hand them out (kubeconfig exec plugins run commands).
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.docker',
  '.kube',
  '.netrc',
  '.git-credentials',
  '.pgpass',
  // toolhost itself.
  'toolhost.config.json',
];

const EXACT_NAMES: ReadonlySet<string> = new Set(
  PROTECTED_NAMES.filter((name) => !name.startsWith('*') && !name.endsWith('*')),
);
const NAME_PREFIXES = PROTECTED_NAMES.filter((name) => name.endsWith('*')).map((name) =>
  name.slice(0, -1),
);
const NAME_SUFFIXES = PROTECTED_NAMES.filter((name) => name.startsWith('*')).map((name) =>
  name.slice(1),
);

function isProtectedName(component: string): boolean {
  return (
    EXACT_NAMES.has(component) ||
    NAME_PREFIXES.some((prefix) => component.startsWith(prefix)) ||
    NAME_SUFFIXES.some((suffix) => component.endsWith(suffix))
  );
}

/**
 * True when a write target needs a human even in `auto` mode: outside the root, the config file,
 * the state dir, or a place another tool executes without review (`PROTECTED_NAMES`). Judged on
 * the UNREDACTED path: the scrubbed preview can turn `.ssh/...` into an innocent-looking
 * `[redacted]`. Judged twice: as written, and where it really lands, because a symlinked directory in the checkout (`ci -> .github`) would
 * otherwise give a protected place an innocent name.
 */
export function isProtectedPath(target: string, context: ProtectedPathContext): boolean {
  if (target === '' || target.includes('\0')) return true;
  const resolved = path.resolve(context.root, target);
  if (isProtectedLexically(resolved, context)) return true;
  const real = realDestination(resolved);
  // Unknown means protected: a path that cannot be resolved asks a human.
  if (real === undefined) return true;
  return real !== resolved && isProtectedLexically(real, realContext(context));
}

function isProtectedLexically(resolved: string, context: ProtectedPathContext): boolean {
  const relative = path.relative(context.root, resolved);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return true;
  if (context.configFile !== undefined && samePath(resolved, context.configFile)) return true;
  if (context.stateDir !== undefined && isWithin(resolved, context.stateDir)) return true;
  if (context.files?.some((file) => samePath(resolved, file)) === true) return true;
  return relative.split(path.sep).map(normaliseComponent).some(isProtectedName);
}

/**
 * Where a write to `resolved` would land: the realpath of its deepest existing ancestor, plus the
 * part that does not exist yet. A dangling symlink on the way is followed, as the fs arm's write
 * walk follows it (`pending -> .github/new` then `pending/x.yml` lands in `.github`). `undefined`
 * when the file system answers anything but "missing".
 */
function realDestination(resolved: string, hops = 0): string | undefined {
  if (hops > MAX_SYMLINK_HOPS) return undefined;
  const missing: string[] = [];
  for (let current = resolved; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(current) === current) {
        return undefined;
      }
      const link = danglingLink(current);
      if (link === null) return undefined;
      if (link !== undefined) {
        const parent = realDestination(path.dirname(current), hops + 1);
        if (parent === undefined) return undefined;
        return realDestination(path.resolve(parent, link, ...missing.reverse()), hops + 1);
      }
      missing.push(path.basename(current));
    }
  }
}

// Linux's own limit on symlink expansions in one lookup.
const MAX_SYMLINK_HOPS = 40;

// The target of a symlink realpath could not follow; `undefined` if `file` is no symlink (or
// missing), `null` when the file system answers anything else.
function danglingLink(file: string): string | undefined | null {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : null;
  }
}

// The context's own paths as real paths, so both sides of each comparison are resolved alike.
function realContext(context: ProtectedPathContext): ProtectedPathContext {
  const real = (file: string): string => realDestination(file) ?? file;
  return {
    root: real(context.root),
    ...(context.configFile === undefined ? {} : { configFile: real(context.configFile) }),
    ...(context.stateDir === undefined ? {} : { stateDir: real(context.stateDir) }),
    ...(context.files === undefined ? {} : { files: context.files.map(real) }),
  };
}

// Case-folded, with the trailing dots/spaces and `:stream` suffixes Windows ignores stripped,
// so `.GIT`, `.git.` and `.git::$DATA` are `.git`.
function normaliseComponent(component: string): string {
  return component
    .toLowerCase()
    .replace(/:.*$/, '')
    .replace(/[. ]+$/, (suffix) => (suffix === component ? suffix : ''));
}

function samePath(a: string, b: string): boolean {
  return path.resolve(a).toLowerCase() === path.resolve(b).toLowerCase();
}

function isWithin(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

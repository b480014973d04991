import { realpathSync } from 'node:fs';
import path from 'node:path';

/** What the protected-path rule needs to know about this host. */
export interface ProtectedPathContext {
  readonly root: string;
  readonly configFile?: string;
  readonly stateDir?: string;
  /** Further files no tool may change unasked, e.g. this run's audit log. */
  readonly files?: readonly string[];
}

// Names whose modification changes what runs next (VCS hooks, CI, shells, credentials): `auto`
// never writes them without a human, even where the host's write floor would allow it.
const PROTECTED_COMPONENTS: ReadonlySet<string> = new Set([
  '.git',
  '.github',
  '.gitlab-ci.yml',
  '.husky',
  '.ssh',
  '.aws',
  '.gnupg',
  '.docker',
  '.vscode',
  '.idea',
  '.config',
]);

const PROTECTED_BASENAMES: ReadonlySet<string> = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  'config.fish',
  '.gitconfig',
  '.gitattributes',
  '.gitmodules',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.netrc',
  '.pypirc',
  '.envrc',
  'toolhost.config.json',
]);

/**
 * True when a write target needs a human even in `auto` mode: outside the root, the config file,
 * the state dir, VCS/CI/shell/credential files. Judged on the UNREDACTED path: the scrubbed
 * preview can turn `.ssh/...` into an innocent-looking `[redacted]`. Judged twice: as written, and
 * where it really lands, because a symlinked directory in the checkout (`ci -> .github`) would
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
  const components = relative.split(path.sep).map(normaliseComponent);
  const basename = components.at(-1) ?? '';
  if (components.some((component) => PROTECTED_COMPONENTS.has(component))) return true;
  if (PROTECTED_BASENAMES.has(basename)) return true;
  return basename === '.env' || basename.startsWith('.env.');
}

/**
 * Where a write to `resolved` would land: the realpath of its deepest existing ancestor, plus the
 * part that does not exist yet. `undefined` when the file system answers anything but "missing".
 */
function realDestination(resolved: string): string | undefined {
  const missing: string[] = [];
  for (let current = resolved; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(current) === current) {
        return undefined;
      }
      missing.push(path.basename(current));
    }
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

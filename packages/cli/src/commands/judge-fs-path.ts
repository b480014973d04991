import path from 'node:path';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/** A lexical verdict on an fs target; the host re-judges on the realpath when the call runs. */
export interface FsPathVerdict {
  readonly allowed: boolean;
  readonly rule: 'in_scope' | 'scope_escape' | 'protected_path';
  readonly detail: string;
}

const READ_FLOOR_COMPONENTS = new Set(['.ssh', '.aws', '.gnupg', '.env']);
const READ_FLOOR_BASENAMES = new Set([
  '.gitconfig',
  '.git-credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.envrc',
  '.dockercfg',
  'credentials',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
]);
const WRITE_FLOOR_COMPONENTS = new Set(['.git', '.ssh']);
const WRITE_FLOOR_BASENAMES = new Set([
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
]);

/**
 * What `explain` can say about an fs path without touching the disk: scope by lexical
 * containment and the name-based floors of the spec. Symlinks and hard links need the disk, so
 * an "allowed" here is provisional; a "denied" is what the host would also say.
 */
export function judgeFsPath(
  target: string,
  operation: 'read' | 'write',
  settings: EffectiveSettings,
): FsPathVerdict {
  const resolved = path.resolve(settings.root, target);
  const roots = [settings.root, ...(settings.fsScope === 'project' ? settings.extraRoots : [])];
  const inside = settings.fsScope === 'full' || roots.some((root) => isWithin(resolved, root));
  if (!inside) {
    return { allowed: false, rule: 'scope_escape', detail: `outside the ${settings.fsScope} tier` };
  }
  const components = resolved
    .split(path.sep)
    .map((part) => part.toLowerCase().replace(/[. ]+$/, ''));
  const basename = components.at(-1) ?? '';
  const floor = floorHit(components, basename, operation, resolved, settings);
  if (floor !== undefined) return { allowed: false, rule: 'protected_path', detail: floor };
  return {
    allowed: true,
    rule: 'in_scope',
    detail: 'inside the scope tier (symlinks are judged at run time)',
  };
}

function floorHit(
  components: readonly string[],
  basename: string,
  operation: 'read' | 'write',
  resolved: string,
  settings: EffectiveSettings,
): string | undefined {
  if (isWithin(resolved, settings.stateDir)) return 'the state directory';
  const envFile = basename === '.env' || basename.startsWith('.env.');
  if (components.some((part) => READ_FLOOR_COMPONENTS.has(part)) || envFile) {
    return 'read floor (credential or secret store)';
  }
  if (READ_FLOOR_BASENAMES.has(basename)) return 'read floor (credential file)';
  const parent = components.at(-2) ?? '';
  if (
    (parent === '.git' && basename === 'config') ||
    (parent === '.docker' && basename === 'config.json')
  ) {
    return 'read floor (credential-bearing config)';
  }
  if (operation === 'write') {
    if (resolved === settings.configFile) {
      return 'write floor (the toolhost config file)';
    }
    if (components.some((part) => WRITE_FLOOR_COMPONENTS.has(part)))
      return 'write floor (.git/.ssh)';
    if (WRITE_FLOOR_BASENAMES.has(basename)) return 'write floor (shell or git startup file)';
  }
  return undefined;
}

function isWithin(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

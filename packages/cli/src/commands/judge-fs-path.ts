import path from 'node:path';
import { isOnReadFloor, isOnWriteFloor, type FloorContext } from '@toolhost/node/host';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/** A lexical verdict on an fs target; the host re-judges on the realpath when the call runs. */
export interface FsPathVerdict {
  readonly allowed: boolean;
  readonly rule: 'in_scope' | 'scope_escape' | 'protected_path';
  readonly detail: string;
}

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
  const floor = floorHit(resolved, operation, settings);
  if (floor !== undefined) return { allowed: false, rule: 'protected_path', detail: floor };
  return {
    allowed: true,
    rule: 'in_scope',
    detail: 'inside the scope tier (symlinks are judged at run time)',
  };
}

// The host's own floor predicates, so explain can never drift from what a call would meet. The
// spill directory of a run explain never started matches nothing: the state dir stays floored.
function floorHit(
  resolved: string,
  operation: 'read' | 'write',
  settings: EffectiveSettings,
): string | undefined {
  const context: FloorContext = {
    stateDir: settings.stateDir,
    spillDir: path.join(settings.stateDir, 'spill', '\0explain'),
    configFile: settings.configFile,
  };
  if (isOnReadFloor(resolved, context)) return 'read floor (secrets, credentials or host state)';
  if (operation === 'write' && isOnWriteFloor(resolved, context)) {
    return 'write floor (VCS internals, startup files, the config file or host state)';
  }
  return undefined;
}

function isWithin(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

import { isOnReadFloor } from './floor.js';
import type { FloorContext } from './floor.js';

/** `isOnReadFloor` over one jail's floor: the same answer for every path. */
export type ReadFloorJudge = (target: string) => boolean;

/**
 * `isOnReadFloor(target, floor)`, the last answer kept. The floor is a pure function of the
 * path and its context, and a read asks it twice of one string: of the requested target, then
 * of the real path the kernel reports for the opened descriptor, which is that same string
 * unless a symlink was followed. The context is copied, so no later change to the caller's
 * object can make a kept answer stale.
 */
export function createReadFloorJudge(floor: FloorContext): ReadFloorJudge {
  const context: FloorContext = Object.freeze({ ...floor });
  let lastTarget: string | undefined;
  let lastAnswer = true;
  return (target) => {
    if (target !== lastTarget) {
      lastAnswer = isOnReadFloor(target, context);
      lastTarget = target;
    }
    return lastAnswer;
  };
}

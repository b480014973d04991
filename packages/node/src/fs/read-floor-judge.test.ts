import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOnReadFloor } from './floor.js';
import { createReadFloorJudge } from './read-floor-judge.js';

const CONTEXT = {
  stateDir: '/home/u/.toolhost/state',
  spillDir: '/home/u/.toolhost/state/spill/run-1',
  configFile: '/w/app/toolhost.config.json',
  homeDir: '/home/u',
};

const PATHS = [
  '/w/app/src/index.ts',
  '/w/app/.env',
  '/w/app/.ENV',
  '/home/u/.ssh/id_ed25519',
  '/home/u/.toolhost/state/journal.db',
  '/home/u/.toolhost/state/spill/run-1/1.txt',
  '/w/app/toolhost.config.json',
  '/w/app/.git/config',
  '/proc/self/environ',
  'src/.env.local',
  'notes.md',
];

describe('createReadFloorJudge', () => {
  it('answers as isOnReadFloor for any sequence of paths, repeats included', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PATHS), { maxLength: 30 }), (sequence) => {
        const judge = createReadFloorJudge(CONTEXT);
        for (const target of sequence) expect(judge(target)).toBe(isOnReadFloor(target, CONTEXT));
      }),
    );
  });

  it('keeps the floor it was made with: a later change to the caller object changes nothing', () => {
    const floor = { ...CONTEXT, stateDir: '/srv/state', spillDir: '/srv/state/spill/run-1' };
    const judge = createReadFloorJudge(floor);
    const journal = '/srv/state/journal.db';
    floor.stateDir = '/elsewhere';
    expect(judge(journal)).toBe(true);
    expect(judge('/w/app/src/index.ts')).toBe(false);
    expect(judge(journal)).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldPath, foldSegment, isFoldedOnReadFloor } from './floor.js';
import type { FloorContext } from './floor.js';
import { createLevelFloor } from './floor-level.js';
import * as legacy from './test-support/legacy-floor.js';

// Names that some filesystem folds onto a floored one, or that look like one and are not.
const HOSTILE_NAMES = [
  '.git',
  '.GIT',
  '.Git',
  'GIT~1',
  'git~12',
  'git~',
  'git~1a',
  '.g\u200cit',
  '.g\u200dit',
  '\u200b.git',
  '.git.',
  '.git ',
  '.git. . ',
  '.git::$INDEX_ALLOCATION',
  '.git:stream',
  '.gıt',
  '.gİt',
  'İ',
  'ı',
  'ß',
  'SS',
  'ſ',
  '.ſsh',
  '.ＳＳＨ',
  '．ssh',
  '.ssh',
  '.Ssh',
  '.e\u0301nv',
  '.env',
  '.ENV',
  '.env.local',
  '.env.',
  '.envrc',
  'ﬁle',
  '.conﬁg',
  'config',
  'CONFIG',
  'config.worktree',
  'credentials',
  'credentials.toml',
  'hosts.yml',
  'config.json',
  'modules',
  'worktrees',
  'environ',
  'mem',
  'proc',
  'spill',
  'state',
  '.docker',
  '.kube',
  'gh',
  'git',
  '.config',
  'fish',
  '.local',
  'share',
  'keyrings',
  '.aws',
  '.cargo',
  'd0',
  'f1.txt',
  'README.md',
  '...',
  ' ',
  '\u00ad',
  'a\u0000b',
  'a:b',
  'e\u0301',
  '\u{1f600}',
  '\u{e0001}',
];

// Directories a listing may stand in: the root, inside a home, inside `.git`, the state dir…
const HOSTILE_DIRECTORIES = [
  '/',
  '/w/app',
  '/w/app/src',
  '/w/app/.git',
  '/w/app/.GIT/modules/sub',
  '/w/app/.git/modules',
  '/w/app/.git/worktrees/wt',
  '/w/app/repo/.git/modules/a/.git',
  '/w/app/.config',
  '/w/app/.config/git',
  '/w/app/.local/share',
  '/w/app/.docker',
  '/w/app/.azure',
  '/w/app/gh',
  '/w/app/git',
  '/w/app/.cargo',
  '/proc',
  '/proc/self',
  '/proc/1',
  '/home',
  '/home/u',
  '/home/u/.config',
  '/home/u/.local/share',
  '/home/u/.local/share/fish',
  '/home/u/.toolhost',
  '/home/u/.toolhost/state',
  '/home/u/.toolhost/state/spill',
  '/home/u/.toolhost/state/spill/run-1',
  '/home/u/.toolhost/state/media',
  '/home/u/project/.ssh',
  '/w/app/.ssh',
  '/w/app/.env',
  '/w/app/ｄｉｒ',
  '/w/app/.g\u200cit',
];

const CONTEXTS: readonly FloorContext[] = [
  {
    stateDir: '/home/u/.toolhost/state',
    spillDir: '/home/u/.toolhost/state/spill/run-1',
    configFile: '/w/app/toolhost.config.json',
    homeDir: '/home/u',
  },
  // The state directory inside the workspace, its spill one level down.
  {
    stateDir: '/w/app/state',
    spillDir: '/w/app/state/spill',
    configFile: '/w/app/toolhost.config.json',
    homeDir: '/home/u',
  },
  // A spill directory outside the state directory; a home of `/` (a service user).
  {
    stateDir: '/w/app/.toolhost',
    spillDir: '/tmp/spill',
    configFile: '/w/app/toolhost.config.json',
    homeDir: '/',
  },
  // The spill directory is the state directory; a relative home (none).
  {
    stateDir: '/home/u/.toolhost/state',
    spillDir: '/home/u/.toolhost/state',
    configFile: '/w/app/toolhost.config.json',
    homeDir: 'relative-home',
  },
  // The home is the workspace.
  {
    stateDir: '/w/app/.toolhost/state',
    spillDir: '/w/app/.toolhost/state/spill/run-1',
    configFile: '/w/app/toolhost.config.json',
    homeDir: '/w/app',
  },
];

// The old decision, exactly as the listing made it before: every entry folded and judged whole.
function legacyDecision(directory: string, name: string, context: FloorContext): boolean {
  return legacy.isFoldedOnReadFloor(
    [...legacy.foldPath(directory), legacy.foldSegment(name)],
    context,
  );
}

// Today's per-entry check: the level floor must follow it too, whatever the floor grows to.
function liveDecision(directory: string, name: string, context: FloorContext): boolean {
  return isFoldedOnReadFloor([...foldPath(directory), foldSegment(name)], context);
}

function newDecision(directory: string, name: string, context: FloorContext): boolean {
  return createLevelFloor(foldPath(directory), context)(foldSegment(name));
}

const segment = fc.oneof(
  fc.constantFrom(...HOSTILE_NAMES),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.stringMatching(/^[.A-Za-z~0-9 :]{0,8}$/),
);
const directory = fc.oneof(
  fc.constantFrom(...HOSTILE_DIRECTORIES),
  fc
    .array(segment, { maxLength: 6 })
    .map((segments) => `/${segments.filter((part) => !/[/\\]/.test(part)).join('/')}`),
  fc
    .tuple(fc.constantFrom(...HOSTILE_DIRECTORIES), fc.array(segment, { maxLength: 3 }))
    .map(([start, rest]) => [start, ...rest.filter((part) => !/[/\\]/.test(part))].join('/')),
);

describe('foldSegment', () => {
  it('folds every ASCII code point as toLowerCase does: NFKC keeps it, none is ignorable', () => {
    for (let code = 0; code < 0x80; code += 1) {
      const character = String.fromCharCode(code);
      expect(character.normalize('NFKC')).toBe(character);
      expect(/\p{Default_Ignorable_Code_Point}/u.test(character)).toBe(false);
      expect(foldSegment(`a${character}b`)).toBe(legacy.foldSegment(`a${character}b`));
    }
  });

  it.each(HOSTILE_NAMES)('folds %j as the frozen copy does', (name) => {
    expect(foldSegment(name)).toBe(legacy.foldSegment(name));
  });

  it('folds any string as the frozen copy does', () => {
    fc.assert(
      fc.property(segment, (name) => foldSegment(name) === legacy.foldSegment(name)),
      { numRuns: 5000 },
    );
  });
});

describe('createLevelFloor', () => {
  it('decides every hostile name in every hostile directory as the per-entry check did', () => {
    let floored = 0;
    for (const context of CONTEXTS)
      for (const where of HOSTILE_DIRECTORIES)
        for (const name of HOSTILE_NAMES) {
          const expected = legacyDecision(where, name, context);
          expect(newDecision(where, name, context), `${where} ${JSON.stringify(name)}`).toBe(
            expected,
          );
          expect(liveDecision(where, name, context)).toBe(expected);
          if (expected) floored += 1;
        }
    // The corpus reaches both answers, and many floored cases.
    expect(floored).toBeGreaterThan(500);
  });

  it('decides any name in any directory as the per-entry check did', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTEXTS),
        directory,
        fc.array(segment, { minLength: 1, maxLength: 8 }),
        (context, where, names) => {
          const onFloor = createLevelFloor(foldPath(where), context);
          return names.every(
            (name) =>
              onFloor(foldSegment(name)) === legacyDecision(where, name, context) &&
              onFloor(foldSegment(name)) === liveDecision(where, name, context),
          );
        },
      ),
      { numRuns: 4000 },
    );
  });

  it('floors the known stores and leaves ordinary files alone', () => {
    const [context] = CONTEXTS;
    if (context === undefined) throw new Error('no context');
    const cases: [string, string, boolean][] = [
      // `.git` is read (a listing leaves it out as ignored); its config files are floored.
      ['/w/app', '.g\u200cit', false],
      ['/w/app/.g\u200cit', 'CONFIG', true],
      ['/w/app/GIT~1', 'config', true],
      ['/w/app/.Git', 'config', true],
      ['/w/app/.git/modules/sub', 'config', true],
      ['/w/app/.git/objects', 'config', false],
      ['/w/app/.docker', 'config.json', true],
      ['/w/app/.config', 'gh', true],
      ['/w/app/.config', 'git', false],
      ['/w/app/.config/git', 'config', true],
      ['/home/u', '.aws', true],
      ['/home/u', '.ssh', true],
      ['/home/u/.toolhost', 'state', true],
      ['/home/u/.toolhost/state/spill', 'run-1', false],
      ['/home/u/.toolhost/state/spill', 'run-2', true],
      ['/proc/self', 'environ', true],
      ['/w/app', '.conﬁg', false],
      ['/w/app', '.ＳＳＨ', true],
      ['/w/app', '.E\u200dnv.local', true],
      ['/w/app', 'f1.txt', false],
      ['/w/app/src', 'index.ts', false],
    ];
    for (const [where, name, expected] of cases) {
      expect(newDecision(where, name, context), `${where} ${name}`).toBe(expected);
      expect(legacyDecision(where, name, context), `${where} ${name}`).toBe(expected);
    }
  });
});

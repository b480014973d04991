import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, resolveRequestedPath, segmentsBelow } from './requested-path.js';

describe('resolveRequestedPath', () => {
  it.each([
    ['a NUL byte', 'a\0b'],
    ['a UNC path', '\\\\server\\share'],
    ['a device namespace', '\\\\.\\pipe\\x'],
    ['a // path', '//host/x'],
    ['a path over PATH_MAX', 'a/'.repeat(2049)],
    ['a segment over NAME_MAX', 'é'.repeat(128)],
  ])('refuses %s as invalid_path', (_label, requested) => {
    expect(() => resolveRequestedPath('read_file', '/w/app', requested)).toThrow(
      expect.objectContaining({ reason: 'invalid_path' }),
    );
  });

  it('resolves relative paths against the root and keeps absolute ones', () => {
    expect(resolveRequestedPath('read_file', '/w/app', 'src/../x')).toBe('/w/app/x');
    expect(resolveRequestedPath('read_file', '/w/app', '/etc/passwd')).toBe('/etc/passwd');
  });
});

describe('isInside', () => {
  it.each([
    ['/w/app', '/w/app', true],
    ['/w/app', '/w/app/x', true],
    ['/w/app', '/w/app-evil/x', false],
    ['/w/app', '/w/ap', false],
    ['/', '/anything', true],
  ])('%s contains %s: %s', (base, target, inside) => {
    expect(isInside(base, target)).toBe(inside);
  });
});

describe('segmentsBelow', () => {
  it('lists the components under the base', () => {
    expect(segmentsBelow('/w/app', '/w/app/a/b')).toEqual(['a', 'b']);
    expect(segmentsBelow('/w/app', '/w/app')).toEqual([]);
  });

  // The split is path.relative's answer wherever the slice applies, and path.relative answers
  // the rest: unnormalised spellings, a root base, a trailing separator.
  it.each([
    ['/w/app', '/w/app/a/b'],
    ['/w/app', '/w/app'],
    ['/', '/a/b'],
    ['/', '/'],
    ['/w/app/', '/w/app/a'],
    ['/w/app', '/w/app/a//b'],
    ['/w/app', '/w/app/a/./b'],
    ['/w/app', '/w/app/a/../b'],
    ['/w/app', '/w/app/a/'],
    ['/w/app', '/w/app/..a/.b./...'],
    ['/w/./app', '/w/app/a'],
  ])('agrees with path.relative: %s, %s', (base, target) => {
    const expected = path
      .relative(base, target)
      .split(path.sep)
      .filter((segment) => segment !== '');
    expect(segmentsBelow(base, target)).toEqual(expected);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeHost } from './normalize-host.js';

describe('normalizeHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['EXAMPLE.Com', 'example.com'],
    ['example.com.', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['[::1]', '[::1]'],
    ['127.0.0.1', '127.0.0.1'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeHost(input)).toBe(expected);
  });

  it.each([
    '',
    'example.com:443',
    'example.com/path',
    'user@example.com',
    'exa mple.com',
    'example.com?q',
    'a\\b',
    '.',
  ])('refuses %j', (input) => {
    expect(normalizeHost(input)).toBeUndefined();
  });
});

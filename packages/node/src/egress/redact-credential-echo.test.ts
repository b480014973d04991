import { describe, expect, it } from 'vitest';

import {
  credentialForms,
  echoesCredential,
  redactCredentialEcho,
  withoutTrailingEcho,
} from './redact-credential-echo.js';
import { CREDENTIAL_ENCODINGS, HOSTILE_SECRET } from './test-support/credential-encodings.js';

const forms = credentialForms(HOSTILE_SECRET);

describe('redactCredentialEcho', () => {
  it.each(CREDENTIAL_ENCODINGS)('redacts an echo as %s', (_case, encode) => {
    const text = `{"echo":"${encode(HOSTILE_SECRET)}","ok":true}`;

    const redacted = redactCredentialEcho(text, forms);

    expect(redacted).toContain('[redacted]');
    expect(redacted).toContain('"ok":true');
    expect(echoesCredential(redacted ?? '', forms)).toBe(false);
  });

  it('replaces only the echo, keeping the text around it', () => {
    const text = `before %73%6B%2d${encodeURIComponent(HOSTILE_SECRET.slice(3))} after`;

    expect(redactCredentialEcho(text, forms)).toBe('before [redacted] after');
  });

  it('redacts the raw secret as it always did', () => {
    expect(redactCredentialEcho(`you sent Bearer ${HOSTILE_SECRET}`, forms)).toBe(
      'you sent Bearer [redacted]',
    );
  });

  it('redacts a secret with a space sent form-encoded with +', () => {
    const spaced = credentialForms('Basic dXNlcjpwYXNzd29yZA==');

    expect(redactCredentialEcho('auth=Basic+dXNlcjpwYXNzd29yZA%3D%3D&x=1', spaced)).toBe(
      'auth=[redacted]&x=1',
    );
  });

  it.each([
    ['a prefix of the secret', `{"hint":"${HOSTILE_SECRET.slice(0, 20)}"}`],
    ['the secret with one character changed', HOSTILE_SECRET.replace('Ab9', 'Ab8')],
    ['a percent-encoded prefix', encodeURIComponent(HOSTILE_SECRET.slice(0, 20))],
    ['base64 of another string', Buffer.from('sk-live/Ab9+xQ=7_y.Kp2-Wm').toString('base64')],
    ['base64 of a prefix', Buffer.from(HOSTILE_SECRET.slice(0, 18)).toString('base64')],
    ['ordinary escapes', '{"a":"line\\nbreak \\u00e9 \\/path","q":"a%20b&amp;c &lt;tag&gt;"}'],
    ['a lone backslash, percent and ampersand', 'C:\\dir 100% R&D &#; %zz \\q'],
  ])('leaves a body with %s untouched', (_case, text) => {
    expect(redactCredentialEcho(text, forms)).toBe(text);
  });
});

describe('withoutTrailingEcho', () => {
  it.each([
    ['raw', (secret: string) => secret],
    ['percent-encoded', (secret: string) => encodeURIComponent(secret)],
    [
      'JSON \\u00XX',
      (secret: string) =>
        [...secret].map((char) => `\\u00${char.charCodeAt(0).toString(16)}`).join(''),
    ],
    ['base64', (secret: string) => Buffer.from(secret).toString('base64')],
  ])('drops a %s echo the cap cut in half', (_case, encode) => {
    const encoded = encode(HOSTILE_SECRET);
    const text = `keep this ${encoded.slice(0, Math.floor(encoded.length * 0.7))}`;

    expect(withoutTrailingEcho(text, forms)).toBe('keep this ');
  });

  it('drops a cut that ends inside an escape', () => {
    const encoded = encodeURIComponent(HOSTILE_SECRET);
    const text = `keep this ${encoded.slice(0, encoded.indexOf('%2F') + 2)}`;

    expect(withoutTrailingEcho(text, forms)).toBe('keep this ');
  });

  it('keeps a cut text that ends in no form of the secret', () => {
    expect(withoutTrailingEcho('keep all of this!', forms)).toBe('keep all of this!');
  });
});

describe('credentialForms', () => {
  it('has no base64 form short enough to match by chance', () => {
    expect(credentialForms('abcd')).toEqual(['abcd']);
  });
});

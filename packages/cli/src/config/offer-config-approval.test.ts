import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashConfigBytes, readConfigApproval } from './config-approval.js';
import { ConfigNotApprovedError } from './config-not-approved-error.js';
import { offerConfigApproval, renderConfigText } from './offer-config-approval.js';

describe('offerConfigApproval', () => {
  let stateDir = '';
  const text = '{"mcpServers": {"x": {"command": "evil\u001b[2K"}}}\n';
  const refused = () =>
    new ConfigNotApprovedError(
      'unapproved',
      {
        stateDir,
        key: '/w/app/toolhost.config.json',
        sha256: hashConfigBytes(Buffer.from(text)),
        text,
      },
      'toolhost.config.json',
    );
  const ask = async (answer: string | undefined) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = '';
    output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
    if (answer === undefined) input.end();
    else input.end(answer);
    const approved = await offerConfigApproval(refused(), { input, output });
    return { approved, screen };
  };
  beforeEach(async () => {
    stateDir = join(await mkdtemp(join(tmpdir(), 'toolhost-offer-')), 'state');
  });
  afterEach(() => rm(join(stateDir, '..'), { recursive: true, force: true }));

  it('records the approval of the shown bytes on "y"', async () => {
    const { approved, screen } = await ask('y\n');

    expect(approved).toBe(true);
    expect(screen).toContain('"command": "evil^[[2K"');
    expect(readConfigApproval(refused().pending)).toBe('approved');
  });

  it.each([
    ['"n"', 'n\n'],
    ['an empty line', '\n'],
    ['anything else', 'sure\n'],
    ['end of input', undefined],
  ])('approves nothing on %s', async (_case, answer) => {
    const { approved } = await ask(answer);

    expect(approved).toBe(false);
    expect(readConfigApproval(refused().pending)).toBe('unapproved');
  });
});

describe('renderConfigText', () => {
  it.each([
    ['an escape sequence', '"a\u001b]0;x\u0007"', '"a^[]0;x^G"'],
    ['a carriage return', '"shown"\r"hidden"', '"shown"^M"hidden"'],
    ['a bidi override', '"a\u202ecba"', '"a\\u202Ecba"'],
    ['a zero-width space', '"ev\u200bil"', '"ev\\u200Bil"'],
  ])('shows %s inert', (_case, raw, shown) => {
    expect(renderConfigText(raw)).toBe(shown);
  });

  it('keeps its lines and spaces', () => {
    expect(renderConfigText('{\n  "a": 1\n}\n')).toBe('{\n  "a": 1\n}');
  });
});

import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { detectInteraction } from './interaction.js';

function io(options: { stdinTTY: boolean; stderrTTY: boolean; env?: NodeJS.ProcessEnv }): CliIo {
  const stream = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY });
  return {
    stdin: stream(options.stdinTTY) as unknown as NodeJS.ReadStream,
    stdout: stream(false) as unknown as NodeJS.WriteStream,
    stderr: stream(options.stderrTTY) as unknown as NodeJS.WriteStream,
    env: options.env ?? {},
    cwd: '/',
  };
}

describe('detectInteraction', () => {
  it('asks a human only with a terminal on stdin and stderr', () => {
    const interaction = detectInteraction(io({ stdinTTY: true, stderrTTY: true }), {
      json: false,
      stdinUsed: false,
    });

    expect(interaction.prompter).toBeDefined();
  });

  it.each([
    ['no terminal on stdin', { stdinTTY: false, stderrTTY: true }, {}, /no terminal/],
    ['no terminal on stderr', { stdinTTY: true, stderrTTY: false }, {}, /no terminal/],
    ['--json', { stdinTTY: true, stderrTTY: true }, { json: true }, /--json/],
    ['stdin carrying arguments', { stdinTTY: true, stderrTTY: true }, { stdinUsed: true }, /stdin/],
    ['CI=true', { stdinTTY: true, stderrTTY: true, env: { CI: 'true' } }, {}, /CI/],
  ])('never asks with %s', (_case, streams, flags, reason) => {
    const interaction = detectInteraction(io(streams), { json: false, stdinUsed: false, ...flags });

    expect(interaction.prompter).toBeUndefined();
    expect('reason' in interaction ? interaction.reason : '').toMatch(reason);
  });

  it('treats CI=false as interactive', () => {
    const interaction = detectInteraction(
      io({ stdinTTY: true, stderrTTY: true, env: { CI: 'false' } }),
      { json: false, stdinUsed: false },
    );

    expect(interaction.prompter).toBeDefined();
  });
});

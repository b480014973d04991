import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliSinks } from './test-support/cli-sink-run.js';
import { plantedSecret, type PlantedSecret } from './test-support/planted-secret.js';
import {
  openSinkEnvironment,
  runEverySink,
  type SinkEnvironment,
} from './test-support/every-sink-run.js';

// Issue 35: a secret reached every sink verbatim when a JSON escape stood before it (`\n` glued
// the letter `n` to the token). Every secret shape the redactor knows, after every escape and
// separator, as a string, a leaf, a key, nested, and where the summary's cut or window falls,
// planted in arguments, results, a file, tool names, argument keys, a host's reason, a write's
// preview and a person's deny reason; read back from every sink through its real surface.
describe('a planted secret, in any encoding position, reaches no sink', () => {
  let env: SinkEnvironment;
  beforeAll(async () => {
    env = await openSinkEnvironment();
  }, 30_000);
  afterAll(async () => {
    await env.close();
  });

  it('events, error messages, the audit log file, the page (APIs, SSE), spans', async () => {
    let runIndex = 0;
    await fc.assert(
      fc.asyncProperty(plantedSecret, async (planted) => {
        expectNoSecret(planted, await runEverySink(env, planted, runIndex++));
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('the command line: call --json, its --audit-log file, explain --json', async () => {
    await fc.assert(
      fc.asyncProperty(plantedSecret, async (planted) => {
        expectNoSecret(planted, await runCliSinks(planted));
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

function expectNoSecret(planted: PlantedSecret, sinks: Readonly<Record<string, string>>): void {
  for (const [sink, text] of Object.entries(sinks)) {
    const at = text.indexOf(planted.shape.body);
    const seen = at === -1 ? '' : text.slice(Math.max(0, at - 200), at + 60);
    expect(seen, `${sink} shows the secret`).toBe('');
  }
}

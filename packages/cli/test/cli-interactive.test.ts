import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { runInPty } from './run-in-pty.js';
import { createWorkspace, type Workspace } from './workspace.js';

const hasScript = existsSync('/usr/bin/script') || existsSync('/bin/script');

describe('toolhost call: approval prompts, progress and Ctrl-C', () => {
  let ws: Workspace;
  beforeEach(async () => {
    ws = await createWorkspace();
  });
  afterEach(() => ws.cleanup());

  const writeArgs = (path: string) => [
    'call',
    'write_file',
    JSON.stringify({ path, content: 'approved' }),
    '--tools',
    'write_file',
    '--mode',
    'accept-edits',
  ];

  it.runIf(hasScript)('asks on the terminal with the preview and writes after "y"', async () => {
    const run = await runInPty([...writeArgs('out.txt'), ...ws.stateFlags], {
      cwd: ws.root,
      exchanges: [{ waitFor: '> ', answer: 'y\n' }],
    });

    expect(run.screen).toContain('write_file wants to write a file');
    expect(run.screen).toMatch(/path: +.*out\.txt/);
    expect(run.code).toBe(0);
    expect(await readFile(join(ws.root, 'out.txt'), 'utf8')).toBe('approved');
  });

  it.runIf(hasScript)('refuses with the typed reason after "r"', async () => {
    const run = await runInPty([...writeArgs('out.txt'), ...ws.stateFlags], {
      cwd: ws.root,
      exchanges: [
        { waitFor: '> ', answer: 'r\n' },
        { waitFor: 'reason: ', answer: 'not today\n' },
      ],
    });

    expect(run.code).toBe(3);
    expect(run.screen).toContain('not today');
    expect(existsSync(join(ws.root, 'out.txt'))).toBe(false);
  });

  it.runIf(hasScript)('cancels with exit 130 on Ctrl-C at the prompt', async () => {
    const run = await runInPty([...writeArgs('out.txt'), ...ws.stateFlags], {
      cwd: ws.root,
      exchanges: [{ waitFor: '> ', answer: '\x03' }],
    });

    expect(run.code).toBe(130);
    expect(run.screen).toContain('cancel');
    expect(existsSync(join(ws.root, 'out.txt'))).toBe(false);
  });

  it.runIf(hasScript)('shows elapsed time for a long command on a terminal', async () => {
    const run = await runInPty(
      [
        'call',
        'run_command',
        '{"command":"sleep","args":["2"]}',
        '--tools',
        'run_command',
        '--allow-command',
        'sleep 2',
        '--mode',
        'auto',
        ...ws.stateFlags,
      ],
      { cwd: ws.root },
    );

    expect(run.code).toBe(0);
    expect(run.screen).toMatch(/sleep running… \ds \(Ctrl-C to cancel\)/);
  });

  it.runIf(hasScript)("shows the running command's last output line beside the time", async () => {
    await ws.write('steps.sh', '#!/bin/sh\necho "step one done"\nsleep 2\n');
    await chmod(join(ws.root, 'steps.sh'), 0o755);

    const run = await runInPty(
      [
        'call',
        'run_command',
        '{"command":"./steps.sh"}',
        '--tools',
        'run_command',
        '--allow-command',
        './steps.sh',
        '--mode',
        'auto',
        ...ws.stateFlags,
      ],
      { cwd: ws.root },
    );

    expect(run.code).toBe(0);
    expect(run.screen).toMatch(/steps\.sh running… \ds \(Ctrl-C to cancel\) │ step one done/);
  });

  it('aborts on Ctrl-C, kills the command and its background child, and leaves no orphan', async () => {
    const marker = String(100_000 + Math.floor(Math.random() * 800_000));
    // A process tree: a shell with one sleep in the background and one in the foreground.
    await ws.write('tree.sh', `#!/bin/sh\nsleep ${marker} &\nsleep ${marker}\n`);
    await chmod(join(ws.root, 'tree.sh'), 0o755);
    let sleepersBefore = 0;

    const run = await runCli(
      [
        'call',
        'run_command',
        '{"command":"./tree.sh"}',
        '--tools',
        'run_command',
        '--allow-command',
        './tree.sh',
        '--mode',
        'auto',
        ...ws.stateFlags,
      ],
      {
        cwd: ws.root,
        onSpawn: (child) => {
          void (async () => {
            for (let attempt = 0; attempt < 200 && findSleepers(marker).length < 2; attempt++) {
              await delay(50);
            }
            sleepersBefore = findSleepers(marker).length;
            child.kill('SIGINT');
          })();
        },
      },
    );

    expect(sleepersBefore).toBe(2);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('cancel');
    await delay(200);
    expect(findSleepers(marker)).toEqual([]);
  });
});

// Processes whose argv is `sleep <marker>`, found through /proc (no pid from inside a namespace).
function findSleepers(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('sleep') === true && argv[1] === marker) found.push(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

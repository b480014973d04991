import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdown, type FencedBlock } from '../docs/parse-markdown.js';

// A new user, from a fresh clone of this repository's HEAD into a fresh project, with exactly the
// commands the README and the getting-started page print (their `tested` blocks), in order. Only
// the placeholders are filled in: `<this repository>` and `/path/to/toolhost`.
const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const LONG = { timeout: 1_200_000 };

interface Shell {
  readonly code: number;
  readonly output: string;
}

// One printed block under bash -e, as a terminal would run it line by line.
async function shell(script: string, cwd: string): Promise<Shell> {
  return run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    maxBuffer: 64 << 20,
    env: terminalEnv(),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, output: `${stdout}${stderr}` }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

// What a person's terminal has: none of the suite's CI flag or of the npm run that started it.
function terminalEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'CI' && !/^npm_/i.test(name)),
  );
}

function sectionBlocks(page: string, heading: string): FencedBlock[] {
  const lines = page.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no "${heading}" section`);
  const end = lines.findIndex((line, index) => index > start && /^## /.test(line));
  return parseMarkdown(page).blocks.filter(
    (block) => block.line > start && (end < 0 || block.line <= end),
  );
}

describe('following the README from a fresh clone into a fresh project', LONG, () => {
  let work = '';
  let clone = '';
  let project = '';
  let readme = '';
  let tested: FencedBlock[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'toolhost-readme-'));
    clone = path.join(work, 'toolhost');
    project = path.join(work, 'my-agent');
  });
  afterAll(async () => {
    if (work !== '') await rm(work, { recursive: true, force: true });
  });

  it('clones, sets up and runs the main job with the README first command', async () => {
    const guide = await readFile(path.join(REPO, 'docs', 'getting-started.md'), 'utf8');
    tested = sectionBlocks(guide, '## Install').filter((block) => /\btested\b/.test(block.info));
    expect(tested.map((block) => block.info)).toEqual([
      'sh tested',
      'sh tested',
      'js tested',
      'sh tested',
      'json tested',
      'sh tested',
    ]);
    const [cloneLine, setUpLine, packLine, ...rest] = tested[0]!.body.split('\n');
    expect(rest).toEqual([]);
    await shell(cloneLine!.replace('<this repository>', REPO), work).then((done) =>
      expect(done).toMatchObject({ code: 0 }),
    );

    readme = await readFile(path.join(clone, 'README.md'), 'utf8');
    const [commands] = parseMarkdown(readme).blocks.filter((block) => block.info === 'sh');
    const lines = (commands?.body ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(lines).toHaveLength(2);
    const [setUp, testCommand] = lines as [string, string];
    // The page's set-up line is the README's, without the main job: one clean install serves both.
    expect(setUp.startsWith(setUpLine!.trim())).toBe(true);
    // CI runs exactly the README's test command.
    expect(await readFile(path.join(clone, '.ci', 'run'), 'utf8')).toContain(`exec ${testCommand}`);

    const mainJob = await shell(setUp, clone);

    expect(mainJob.code, mainJob.output.slice(-4000)).toBe(0);
    expect(mainJob.output).toContain('# toolhost');
    const packed = await shell(packLine!.replace(/\s+#.*$/, ''), clone);
    expect(packed.code, packed.output.slice(-4000)).toBe(0);
  });

  it('installs the tarballs into an npm init -y project, and runs the ES module script', async () => {
    const [, install, script] = tested;
    const made = await shell(install!.body.replaceAll('/path/to/toolhost', clone), work);
    expect(made.code, made.output.slice(-4000)).toBe(0);
    await writeFile(path.join(project, 'main.js'), `${script!.body}\n`);

    const ran = await shell('node main.js', project);

    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('"name": "my-agent"');
  });

  it('compiles the README library example with the printed tsconfig (skipLibCheck off) and runs it', async () => {
    const [, , , addCompiler, tsconfig, compileAndRun] = tested;
    const library = parseMarkdown(readme).blocks.find(
      (block) => /^ts\b/.test(block.info) && block.body.includes("from '@toolhost/node'"),
    );
    expect(JSON.parse(tsconfig!.body)).toMatchObject({ compilerOptions: { skipLibCheck: false } });
    const added = await shell(addCompiler!.body, project);
    expect(added.code, added.output.slice(-4000)).toBe(0);
    await writeFile(path.join(project, 'tsconfig.json'), `${tsconfig!.body}\n`);
    await writeFile(path.join(project, 'agent.ts'), `${library!.body}\n`);

    const ran = await shell(compileAndRun!.body, project);

    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toContain('# notes');
  });
});

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The 1 MiB file the `cat` rows read, relative to the workspace root. */
export const ONE_MIB_FILE = 'one-mib.txt';

/**
 * A small project as an agent meets it: a git repository with a commit and a remote, a
 * package.json, a few dozen sources, a `.env` (read floor: masked) and a `.yarnrc.yml` (write floor: read-only).
 * Every sandboxed spawn scans it, filters its `.git/config` and masks the `.env`.
 */
export async function createBenchWorkspace(): Promise<string> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-bench-process-')));
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'bench-app', version: '1.0.0', type: 'module' }),
    'README.md': '# bench-app\n',
    '.gitignore': 'node_modules\n.env\n',
    '.env': 'API_TOKEN=not-a-real-token\n',
    '.yarnrc.yml': 'nodeLinker: node-modules\n',
    'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
  };
  for (const area of ['src', 'src/lib', 'src/routes', 'test', 'scripts']) {
    for (let index = 0; index < 8; index += 1) {
      files[`${area}/module-${index}.ts`] = `export const value${index} = ${index};\n`;
    }
  }
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  await writeFile(path.join(root, ONE_MIB_FILE), Buffer.alloc(1024 * 1024, 0x61));
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'https://example.invalid/bench-app.git');
  git('config', 'core.autocrlf', 'input');
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-qm', 'init');
  return root;
}

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SandboxContext } from './create-sandbox.js';
import { filterGitConfig } from './filter-git-config.js';
import { exists } from './sandbox-paths.js';
import { buildSeccompFilter, type SeccompArch } from './seccomp-filter.js';

let privateDir: string | undefined;
const madeDirectories = new Set<string>();
const seccompFiles = new Map<string, string>();

// The compiled program, written once per arch and content: bwrap reads it from a descriptor.
export function seccompFile(context: SandboxContext, arch: SeccompArch): string {
  const directory = sandboxDir(context, 'seccomp');
  const key = `${directory}\0${arch}`;
  let file = seccompFiles.get(key);
  if (file === undefined) {
    const program = buildSeccompFilter(arch);
    const digest = createHash('sha256').update(program).digest('hex').slice(0, 16);
    file = path.join(directory, `${arch}-${digest}.bpf`);
    if (!exists(file)) writeAtomically(file, program, 0o444);
    seccompFiles.set(key, file);
  }
  return file;
}

// Content-addressed, so concurrent spawns and repeated calls share one file per distinct config.
export async function filteredConfigFile(
  context: SandboxContext,
  configFile: string,
): Promise<string> {
  let text = '';
  try {
    const filtered = await filterGitConfig(configFile);
    text = filtered.text;
  } catch {
    // Fail closed: a config git cannot read shows nothing from it inside.
    text = '';
  }
  const directory = sandboxDir(context, 'git');
  const file = path.join(directory, `${createHash('sha256').update(text).digest('hex')}.config`);
  if (!exists(file)) writeAtomically(file, text, 0o644);
  return file;
}

// Shown in place of every masked file: a regular file that reads as empty.
export function emptyFile(context: SandboxContext): string {
  const file = path.join(sandboxDir(context, 'masks'), 'empty');
  if (!exists(file)) writeFileSync(file, '', { mode: 0o444 });
  return file;
}

function sandboxDir(context: SandboxContext, name: string): string {
  const base =
    context.stateDir === undefined ? privateBase() : path.join(context.stateDir, 'sandbox');
  const directory = path.join(base, name);
  if (!madeDirectories.has(directory)) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    madeDirectories.add(directory);
  }
  return directory;
}

// Without a state dir: one directory per user under the system temp dir, trusted only if it is
// ours and private (another user could have made it first), else a fresh one.
function privateBase(): string {
  if (privateDir !== undefined) return privateDir;
  const shared = path.join(tmpdir(), `toolhost-sandbox-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(shared, { mode: 0o700 });
  } catch {
    // Exists already: checked below.
  }
  try {
    const info = lstatSync(shared);
    const ours = info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o077) === 0;
    privateDir = ours ? shared : mkdtempSync(path.join(tmpdir(), 'toolhost-sandbox-'));
  } catch {
    privateDir = mkdtempSync(path.join(tmpdir(), 'toolhost-sandbox-'));
  }
  return privateDir;
}

function writeAtomically(file: string, content: string | Uint8Array, mode: number): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temporary, content, { mode });
  renameSync(temporary, file);
}

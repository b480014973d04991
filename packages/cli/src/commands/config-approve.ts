import path from 'node:path';
import type { Command } from 'commander';
import { CliUsageError } from '../cli-error.js';
import { recordConfigApproval } from '../config/config-approval.js';
import { CONFIG_FILE_NAME, readWorkspaceConfig } from '../config/load-config.js';
import { EXIT_CODES } from '../exit-codes.js';
import { printJson, type CliIo } from './cli-io.js';
import { stateDirFromOptions } from './policy-options.js';

interface ConfigApproveOptions {
  readonly root?: string;
  readonly stateDir?: string;
  readonly json?: boolean;
}

/** `toolhost config approve`: records the root's current config bytes as approved. */
export function registerConfig(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const config = program.command('config').description(`manage the root's ${CONFIG_FILE_NAME}`);
  config
    .command('approve')
    .description(`approve the current content of ${CONFIG_FILE_NAME} (after you have read it)`)
    .option('--root <dir>', 'workspace root (default: the current directory)')
    .option('--state-dir <dir>', 'state directory, where the approval is recorded')
    .option('--json', 'machine-readable output on stdout')
    .action((options: ConfigApproveOptions) => {
      const root = path.resolve(io.cwd, options.root ?? '.');
      // Read, validated and hashed once: the approval is of these bytes, whatever comes later.
      const workspace = readWorkspaceConfig(root, stateDirFromOptions(options, io));
      if (workspace === undefined) {
        throw new CliUsageError(`no ${CONFIG_FILE_NAME} in the root to approve`);
      }
      if (workspace.status !== 'approved') recordConfigApproval(workspace.pending);
      const { key, sha256 } = workspace.pending;
      if (options.json === true) printJson(io, { ok: true, configFile: key, sha256 });
      else io.stdout.write(`approved ${key} (sha256 ${sha256})\n`);
      setExit(EXIT_CODES.success);
    });
}

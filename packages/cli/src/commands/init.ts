import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliUsageError } from '../cli-error.js';
import {
  configApprovalKey,
  hashConfigBytes,
  recordConfigApproval,
} from '../config/config-approval.js';
import { CONFIG_FILE_NAME } from '../config/load-config.js';
import { parseConfig } from '../config/load-config.js';
import { SCHEMA_COPY_NAME, writeSchemaCopy } from '../config/write-schema-copy.js';
import { EXIT_CODES } from '../exit-codes.js';
import type { CliIo } from './cli-io.js';
import { stateDirFromOptions } from './policy-options.js';

/**
 * The starter config. JSON has no comments, so the schema admits two keys for humans: `$schema`
 * (editor completion and hover docs) and `$comment` (free text, ignored). Everything else is
 * strict, so a typo is an error rather than a silently ignored setting.
 */
export const STARTER_CONFIG = {
  // A copy written beside the config: resolves with no node_modules and no machine's own path.
  $schema: `./${SCHEMA_COPY_NAME}`,
  $comment: [
    'toolhost config. Reference: docs/cli-config.md in the toolhost repository. Every list below is deny-all when empty.',
    'tools: the grant. Only these tool ids can be called.',
    'fsScope: sandboxed (this root) | project (+ extraRoots) | full (no jail: trusted use only).',
    'allowedCommands: exact command strings (command + args, one space). Globs: allowedCommandGlobs.',
    'allowedDomains: exact hosts http_request may reach (https only; private addresses always blocked).',
    'mode: ask | plan refuse writes, commands, network and OS actions; accept-edits asks you;',
    '      auto approves them except protected paths (config, .git, CI, shell files), which ask.',
    'toolConfig: per-tool values the model can never set, e.g. run_command.timeoutMs.',
    'credentials: where secrets live (env var or file), referenced by name; never the secret itself.',
  ],
  tools: ['read_file', 'list_directory', 'git_status', 'write_file', 'run_command'],
  fsScope: 'sandboxed',
  extraRoots: [],
  allowedCommands: ['npm test', 'git diff'],
  allowedCommandGlobs: [],
  allowedDomains: [],
  mode: 'accept-edits',
  limits: { maxBytes: 51200, maxLines: 2000 },
  toolConfig: { run_command: { timeoutMs: 120000 } },
  mcpServers: {},
  credentials: {},
} as const;

/** `toolhost init`: writes the starter config into the root (never over an existing file), approved. */
export function registerInit(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('init')
    .description(`write a starter ${CONFIG_FILE_NAME}`)
    .option('--root <dir>', 'where to write it (default: the current directory)')
    .option('--force', 'overwrite an existing config file')
    .option('--state-dir <dir>', 'state directory, where its approval is recorded')
    .action((options: { root?: string; force?: boolean; stateDir?: string }) => {
      const file = path.resolve(io.cwd, options.root ?? '.', CONFIG_FILE_NAME);
      const text = `${JSON.stringify(STARTER_CONFIG, null, 2)}\n`;
      // The starter must pass our own validation; a broken template would be a bad first impression.
      parseConfig(text);
      try {
        writeFileSync(file, text, { flag: options.force === true ? 'w' : 'wx' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
        throw new CliUsageError(
          code === 'EEXIST'
            ? `${CONFIG_FILE_NAME} already exists; pass --force to overwrite it`
            : `cannot write ${CONFIG_FILE_NAME} (${code})`,
        );
      }
      // The bytes written here, not a re-read: a file swapped in meanwhile stays unapproved.
      recordConfigApproval({
        stateDir: stateDirFromOptions(options, io),
        key: configApprovalKey(file),
        sha256: hashConfigBytes(Buffer.from(text, 'utf8')),
      });
      const schema = writeSchemaCopyOrSay(path.dirname(file), io);
      io.stdout.write(
        `wrote ${CONFIG_FILE_NAME}${schema} and approved it; after editing it, run \`toolhost config approve\`; check it with \`toolhost doctor\`\n`,
      );
      setExit(EXIT_CODES.success);
    });
}

// The config is written and approved by now: a schema copy that cannot be written costs editor
// completion only, so it is said, not fatal.
function writeSchemaCopyOrSay(directory: string, io: CliIo): string {
  try {
    if (writeSchemaCopy(directory) === 'written') return ` (with its schema, ${SCHEMA_COPY_NAME})`;
    io.stderr.write(
      `toolhost: kept the existing ${SCHEMA_COPY_NAME}, which is not a toolhost schema; "$schema" names it\n`,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unwritable';
    io.stderr.write(`toolhost: cannot write ${SCHEMA_COPY_NAME} (${code}); "$schema" names it\n`);
  }
  return '';
}

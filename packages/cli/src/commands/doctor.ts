import type { Command } from 'commander';
import { EXIT_CODES } from '../exit-codes.js';
import { openSession } from '../session/open-session.js';
import { printJson, type CliIo } from './cli-io.js';
import { findHelpers, HELPERS } from './find-helpers.js';
import { judgeTool } from './judge-tool.js';
import {
  addPolicyOptions,
  settingsFromOptions,
  type PolicyOptionValues,
} from './policy-options.js';

const ARMS = ['fs', 'process', 'egress', 'os', 'mcp', 'outputStore', 'media'] as const;

/** `toolhost doctor`: arms, helpers, containment, the effective policy and what it refuses. */
export function registerDoctor(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(
    program.command('doctor').description('show the host arms, helpers, policy and refusals'),
  ).action(async (options: PolicyOptionValues) => {
    const settings = settingsFromOptions(options, io);
    const session = await openSession({ settings });
    try {
      const helpers = findHelpers(io.env['PATH'], Object.values(HELPERS).flat());
      const arms = Object.fromEntries(ARMS.map((arm) => [arm, session.host[arm] !== undefined]));
      const containment = await describeContainment(session.host.process);
      const tools = session.grantedTools.map((tool) =>
        judgeTool(tool, session.host, settings, helpers),
      );
      const report = {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        root: settings.root,
        configFile: settings.configLoaded ? settings.configFile : null,
        stateDir: settings.stateDir,
        arms,
        helpers,
        containment,
        progress: 'elapsed time and the last output line, on a terminal stderr',
        policy: {
          grant: settings.grant,
          fsScope: settings.fsScope,
          extraRoots: settings.extraRoots,
          mode: settings.mode,
          ...settings.toolPolicy,
          limits: settings.limits,
          budgets: settings.budgets,
          toolConfigKeys: Object.fromEntries(
            Object.entries(settings.toolConfig).map(([id, values]) => [id, Object.keys(values)]),
          ),
          mcpServers: Object.keys(settings.mcpServers),
          credentials: Object.keys(settings.credentials),
        },
        tools,
        notRegistered: settings.grant.filter((id) => !session.tools.some((tool) => tool.id === id)),
      };
      if (options.json === true) printJson(io, report);
      else io.stdout.write(renderDoctor(report));
      setExit(EXIT_CODES.success);
    } finally {
      await session.close();
    }
  });
}

async function describeContainment(arm: unknown): Promise<unknown> {
  const describe = (arm as { describeContainment?: () => Promise<unknown> } | undefined)
    ?.describeContainment;
  if (typeof describe !== 'function') return null;
  try {
    return await describe.call(arm);
  } catch {
    return null;
  }
}

// `pid-namespace via in-process (budgets: prlimit)`: the mechanism says whether each command
// pays an extra `unshare` exec (util-linux) or none (the @toolhost/pid-namespace addon).
function renderContainment(containment: unknown): string {
  if (containment === null) return 'not reported by the process arm';
  const { containment: mode, mechanism, budgets } = containment as Record<string, unknown>;
  if (typeof mode !== 'string') return JSON.stringify(containment);
  const via = typeof mechanism === 'string' ? ` via ${mechanism}` : '';
  return `${mode}${via} (budgets: ${String(budgets)})`;
}

type DoctorReport = {
  readonly arms: Record<string, boolean>;
  readonly helpers: Record<string, boolean>;
  readonly containment: unknown;
  readonly policy: Record<string, unknown>;
  readonly tools: readonly ReturnType<typeof judgeTool>[];
  readonly notRegistered: readonly string[];
} & Record<string, unknown>;

function renderDoctor(report: DoctorReport): string {
  const yesNo = (entries: Record<string, boolean>) =>
    Object.entries(entries)
      .map(([name, present]) => `${present ? '✓' : '✗'} ${name}`)
      .join('  ');
  const lines = [
    `toolhost doctor — node ${String(report['node'])} on ${String(report['platform'])}`,
    `root:       ${String(report['root'])}`,
    `config:     ${String(report['configFile'] ?? '(none: defaults)')}`,
    `state dir:  ${String(report['stateDir'])}`,
    `arms:       ${yesNo(report.arms)}`,
    `helpers:    ${yesNo(report.helpers)}`,
    `containment: ${renderContainment(report.containment)}`,
    `progress:   ${String(report['progress'])}`,
    '',
    'effective policy:',
    ...Object.entries(report.policy).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
    '',
    'granted tools:',
  ];
  for (const verdict of report.tools) {
    const approval = verdict.approval === undefined ? '' : ` [approval: ${verdict.approval}]`;
    lines.push(`  ${verdict.tool} (needs ${verdict.needs})${approval}`);
    for (const refusal of verdict.refusals) lines.push(`    refused: ${refusal}`);
  }
  if (report.notRegistered.length > 0) {
    lines.push(`granted but not registered: ${report.notRegistered.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}

import type { Command } from 'commander';
import { describeNativeHelpers, NATIVE_HELPERS_FIX, type NativeHelpers } from '@toolhost/node';
import type { ContainmentDescription } from '@toolhost/node/process';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { EXIT_CODES } from '../exit-codes.js';
import { describeMcpCollisions } from '../session/describe-mcp-collisions.js';
import { describeMcpReach, type McpServerReach } from '../session/describe-mcp-reach.js';
import { describeHostContainment } from '../session/describe-process-floors.js';
import { openSession } from '../session/open-session.js';
import { printJson, type CliIo } from './cli-io.js';
import { findHelpers, HELPERS } from './find-helpers.js';
import { judgeTool } from './judge-tool.js';
import { doctorSettings } from './doctor-settings.js';
import { addPolicyOptions, type PolicyOptionValues } from './policy-options.js';
import { renderMcpReach, renderSandboxLines, SANDBOX_FIX } from './render-floors.js';

const ARMS = ['fs', 'process', 'egress', 'os', 'mcp', 'outputStore', 'media'] as const;

/** `toolhost doctor`: arms, helpers, containment, the effective policy and what it refuses. */
export function registerDoctor(program: Command, io: CliIo, setExit: (code: number) => void): void {
  addPolicyOptions(
    program.command('doctor').description('show the host arms, helpers, policy and refusals'),
  ).action(async (options: PolicyOptionValues) => {
    const { settings, unapplied } = doctorSettings(options, io);
    // doctor reports an unknown grant id (notRegistered) instead of refusing it.
    const session = await openSession({ settings, allowUnknownGrant: true });
    try {
      const helpers = findHelpers(io.env['PATH'], Object.values(HELPERS).flat());
      const arms = Object.fromEntries(ARMS.map((arm) => [arm, session.host[arm] !== undefined]));
      const containment = (await describeHostContainment(session.host)) ?? null;
      const nativeHelpers = await describeNativeHelpers();
      const sandboxDown =
        containment !== null &&
        containment.sandbox.mode === 'required' &&
        !containment.sandbox.available;
      const tools = session.grantedTools.map((tool) => {
        const verdict = judgeTool(tool, session.host, settings, helpers);
        // Every spawn of such a tool fails closed: the arm exists, but nothing would run.
        return sandboxDown && tool.policy.spawnsProcess
          ? {
              ...verdict,
              refusals: [...verdict.refusals, `every call: sandbox_unavailable; ${SANDBOX_FIX}`],
            }
          : verdict;
      });
      const report = {
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        root: settings.root,
        configFile: settings.configLoaded || unapplied !== undefined ? settings.configFile : null,
        // A workspace config that loaded was approved; one named with --config needs no record.
        configApproval:
          unapplied !== undefined
            ? unapplied.status
            : settings.configLoaded
              ? options.config === undefined
                ? 'approved'
                : 'given with --config'
              : null,
        ...(unapplied === undefined
          ? {}
          : { configApplied: false, configApproveWith: unapplied.approveWith }),
        stateDir: settings.stateDir,
        arms,
        helpers,
        nativeHelpers,
        containment,
        mcpReach: describeMcpReach(settings),
        mcpCollisions: describeMcpCollisions(session.mcpReport),
        progress: 'elapsed time and the last output line, on a terminal stderr',
        policy: {
          grant: settings.grant,
          fsScope: settings.fsScope,
          extraRoots: settings.extraRoots,
          mode: settings.mode,
          ...settings.toolPolicy,
          limits: settings.limits,
          budgets: settings.budgets,
          sandbox: {
            mode: settings.sandbox,
            source: settings.sandboxSource,
            ...settings.sandboxAllowance,
          },
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
      else io.stdout.write(renderDoctor(report, settings));
      setExit(EXIT_CODES.success);
    } finally {
      await session.close();
    }
  });
}

// `pid-namespace via bwrap (budgets: prlimit, tree budgets: unenforced)`: the mechanism says
// whether each command pays an extra exec (bwrap, util-linux `unshare`) or none (the addon).
function renderContainment(containment: ContainmentDescription | null): string {
  if (containment === null) return 'not reported by the process arm';
  const via = containment.mechanism === undefined ? '' : ` via ${containment.mechanism}`;
  return `${containment.containment}${via} (budgets: ${containment.budgets}, tree budgets: ${containment.treeBudgets})`;
}

type DoctorReport = {
  readonly arms: Record<string, boolean>;
  readonly helpers: Record<string, boolean>;
  readonly nativeHelpers: NativeHelpers;
  readonly containment: ContainmentDescription | null;
  readonly mcpReach: readonly McpServerReach[];
  readonly mcpCollisions: readonly string[];
  readonly policy: Record<string, unknown>;
  readonly tools: readonly ReturnType<typeof judgeTool>[];
  readonly notRegistered: readonly string[];
} & Record<string, unknown>;

// npm hides install-script output, and npm 11 skips unapproved scripts: this is where a helper
// that never built is said, with what its absence costs and the fix.
function renderNativeHelpers(helpers: NativeHelpers): string[] {
  const entries = [
    ['pid-namespace', helpers.pidNamespace, 'PID containment uses util-linux unshare'],
    [
      'sandbox-net',
      helpers.sandboxNet,
      'a sandbox network allowance fails closed; sandboxed exit statuses are approximate (an exit code over 128 reads as a signal)',
    ],
    ['fs-at', helpers.fsAt, 'search_files and list_directory go through Node (slower)'],
  ] as const;
  if (entries.every(([, state]) => state === 'unsupported_platform')) return [];
  const line = entries
    .map(
      ([name, state]) =>
        `${state === 'built' ? '✓' : '✗'} ${name}${state === 'built' ? '' : ` (${state.replace('_', ' ')})`}`,
    )
    .join('  ');
  const missing = entries.filter(([, state]) => state === 'not_built' || state === 'not_installed');
  return [
    `native:     ${line}`,
    ...missing.map(([name, , cost]) => `  ${name} missing: ${cost}`),
    ...(missing.length === 0 ? [] : [`  fix: ${NATIVE_HELPERS_FIX}`]),
  ];
}

function renderConfig(report: DoctorReport): string[] {
  if (report['configFile'] === null) return ['(none: defaults)'];
  const line = `${String(report['configFile'])} (${String(report['configApproval'])})`;
  if (report['configApplied'] !== false) return [line];
  return [
    `${line}: NOT APPLIED; this report uses the defaults and flags`,
    `  approve it: ${String(report['configApproveWith'])}`,
  ];
}

function renderDoctor(report: DoctorReport, settings: EffectiveSettings): string {
  const yesNo = (entries: Record<string, boolean>) =>
    Object.entries(entries)
      .map(([name, present]) => `${present ? '✓' : '✗'} ${name}`)
      .join('  ');
  const lines = [
    `toolhost doctor — node ${String(report['node'])} on ${String(report['platform'])}`,
    `root:       ${String(report['root'])}`,
    ...renderConfig(report).map((line, index) => (index === 0 ? `config:     ${line}` : line)),
    `state dir:  ${String(report['stateDir'])}`,
    `arms:       ${yesNo(report.arms)}`,
    `helpers:    ${yesNo(report.helpers)}`,
    ...renderNativeHelpers(report.nativeHelpers),
    `containment: ${renderContainment(report.containment)}`,
    ...renderSandboxLines(report.containment ?? undefined, settings),
    ...(report.mcpReach.length === 0
      ? []
      : ['mcp stdio servers may reach:', ...report.mcpReach.map((r) => `  ${renderMcpReach(r)}`)]),
    ...report.mcpCollisions.map((line) => `mcp:        ${line}`),
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

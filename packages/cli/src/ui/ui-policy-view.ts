import type { ContainmentDescription } from '@toolhost/node/process';
import { renderMcpReach, renderSandboxLines } from '../commands/render-floors.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { describeMcpReach } from '../session/describe-mcp-reach.js';

/** One labelled value of the policy view. */
export interface UiPolicyRow {
  readonly label: string;
  readonly value: string;
}

/** The active policy as the page shows it: titled groups of labelled values. */
export interface UiPolicyView {
  readonly sections: readonly {
    readonly title: string;
    readonly rows: readonly UiPolicyRow[];
  }[];
}

/**
 * The served session's policy: the grant, the mode, the fs tier and roots, the allowlists, the
 * sandbox floors as the process arm reports them (the doctor's words), MCP reach and the journal.
 * The operator's own settings (`describeProcessFloors` gives the floors): nothing came from a client.
 */
export function describeUiPolicy(
  settings: EffectiveSettings,
  containment: ContainmentDescription | undefined,
): UiPolicyView {
  const { toolPolicy } = settings;
  const reach = describeMcpReach(settings).map(renderMcpReach);
  return {
    sections: [
      {
        title: 'Grant',
        rows: [
          { label: 'tools', value: list(settings.grant) },
          { label: 'named by', value: settings.grantSource },
          { label: 'approval mode', value: settings.mode },
        ],
      },
      {
        title: 'Filesystem',
        rows: [
          { label: 'tier', value: settings.fsScope },
          { label: 'root', value: settings.root },
          ...(settings.extraRoots.length === 0
            ? []
            : [{ label: 'extra roots', value: list(settings.extraRoots) }]),
        ],
      },
      {
        title: 'Allowlists',
        rows: [
          { label: 'commands', value: list(toolPolicy.allowedCommands) },
          { label: 'command globs', value: list(toolPolicy.allowedCommandGlobs) },
          { label: 'domains', value: list(toolPolicy.allowedDomains) },
        ],
      },
      {
        title: 'Sandbox floors',
        rows: renderSandboxLines(containment, settings).map(toRow),
      },
      {
        title: 'MCP servers',
        rows:
          reach.length === 0
            ? [{ label: 'servers', value: '(none configured)' }]
            : reach.map((line) => ({ label: 'server', value: line })),
      },
      {
        // `serve` journals nothing: each client's calls are its own, not a resumable run.
        title: 'Journal',
        rows: [{ label: 'effect journal', value: 'off (toolhost serve does not journal calls)' }],
      },
    ],
  };
}

/** The view of `toolhost ui --audit-log`: there is no live policy, only the file. */
export function auditLogPolicy(file: string): UiPolicyView {
  return {
    sections: [
      {
        title: 'Audit log',
        rows: [
          { label: 'file', value: file },
          { label: 'approvals', value: 'none: this page only reads the log' },
        ],
      },
    ],
  };
}

function list(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : values.join(', ');
}

// `  network:      none (…)` → { label: 'network', value: 'none (…)' }.
function toRow(line: string): UiPolicyRow {
  const match = /^\s*([^:]+):\s*(.*)$/u.exec(line);
  return match === null
    ? { label: '', value: line.trim() }
    : { label: match[1] ?? '', value: match[2] ?? '' };
}

import type { AnyToolDef, ToolHost } from '@toolhost/core';
import { approvalActionClass } from '@toolhost/core/loop';
import type { EffectiveSettings } from '../config/resolve-settings.js';

/** What `doctor` can say about a granted tool without calling it. */
export interface ToolVerdict {
  readonly tool: string;
  /** The host arm it needs, or the delegate. */
  readonly needs: string;
  readonly available: boolean;
  /** The approval class, when governed. */
  readonly approval?: string;
  /** Why calls would be refused here, when they would be. */
  readonly refusals: readonly string[];
}

/** Judges one tool against this host and policy: unavailable arms, deny-all lists, mode refusals. */
export function judgeTool(
  tool: AnyToolDef,
  host: ToolHost,
  settings: EffectiveSettings,
  helpers: Readonly<Record<string, boolean>>,
): ToolVerdict {
  const needs = requiredArm(tool);
  const available = isAvailable(tool, needs, host);
  const approval = approvalActionClass(tool);
  const refusals: string[] = [];
  if (!available) refusals.push(`unavailable: this host has no ${needs} arm`);
  if (approval !== undefined && (settings.mode === 'ask' || settings.mode === 'plan')) {
    refusals.push(`mode ${settings.mode} refuses every ${approval} action`);
  }
  if (approval !== undefined && settings.mode === 'accept-edits') {
    refusals.push(
      `without a terminal, with --json or under CI (accept-edits asks a human for ${approval})`,
    );
  }
  const policy = settings.toolPolicy;
  if (tool.policy.spawnsProcess && tool.policyTarget !== undefined) {
    if (policy.allowedCommands.length === 0 && policy.allowedCommandGlobs.length === 0) {
      refusals.push('every command: allowedCommands and allowedCommandGlobs are empty');
    }
  }
  if (tool.policy.egress === 'http' && policy.allowedDomains.length === 0) {
    refusals.push('every URL: allowedDomains is empty');
  }
  if (tool.policy.requiresGateApproval) refusals.push('gate_required unless --gate-approved');
  if (tool.id === 'web_search' && settings.toolConfig['web_search']?.['endpoint'] === undefined) {
    refusals.push('toolConfig.web_search.endpoint is not set');
  }
  if (tool.id === 'read_clipboard' && !anyOf(helpers, ['wl-paste', 'xclip', 'xsel', 'pbpaste'])) {
    refusals.push('no clipboard helper on PATH');
  }
  if (tool.id === 'notify' && !anyOf(helpers, ['notify-send', 'osascript'])) {
    refusals.push('no notification helper on PATH');
  }
  if (tool.id.startsWith('git_') && helpers['git'] === false) refusals.push('git is not on PATH');
  return {
    tool: tool.id,
    needs,
    available,
    ...(approval === undefined ? {} : { approval }),
    refusals,
  };
}

function requiredArm(tool: AnyToolDef): string {
  const { policy } = tool;
  if (policy.fsScoped) return policy.fsWrite === true ? 'fs (write)' : 'fs';
  if (policy.spawnsProcess) return 'process';
  if (policy.egress === 'mcp') return 'mcp';
  if (policy.egress !== undefined) return 'egress';
  if (policy.os === true) return 'os';
  if (tool.id === 'read_media') return 'media';
  if (tool.id === 'invoke_agent') return 'invokeAgent delegate';
  return 'none';
}

function isAvailable(tool: AnyToolDef, needs: string, host: ToolHost): boolean {
  switch (needs) {
    case 'fs':
      return host.fs !== undefined;
    case 'fs (write)':
      return host.fs?.writeFile !== undefined;
    case 'process':
      return host.process !== undefined;
    case 'mcp':
      return host.mcp !== undefined;
    case 'egress':
      return host.egress !== undefined;
    case 'os':
      return host.os !== undefined;
    case 'media':
      return host.media !== undefined;
    // The CLI runs single calls: there is no agent to delegate to.
    case 'invokeAgent delegate':
      return false;
    default:
      return tool.id !== '';
  }
}

function anyOf(helpers: Readonly<Record<string, boolean>>, names: readonly string[]): boolean {
  return names.some((name) => helpers[name] === true);
}

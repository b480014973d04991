import { ToolPolicyError, type AnyToolDef, type ToolApprovalRequest } from '@toolhost/core';
import { findArgumentTrap, matchCommandGlob, type PolicyTarget } from '@toolhost/core/policy';
import { redactText } from '@toolhost/core/redact';
import type { ContainmentDescription } from '@toolhost/node/process';
import { createConfirmHook } from '../approval/create-confirm-hook.js';
import type { EffectiveSettings } from '../config/resolve-settings.js';
import { judgeFsPath } from './judge-fs-path.js';
import { renderNetwork, renderSandboxMode, renderSeccomp, SANDBOX_FIX } from './render-floors.js';

/** One line of the dry run. */
export interface ExplainStep {
  readonly step:
    | 'resolve'
    | 'grant'
    | 'args'
    | 'policy'
    | 'allowlist'
    | 'domain'
    | 'fs'
    | 'approval'
    | 'host'
    | 'sandbox';
  readonly status: 'pass' | 'fail' | 'ask' | 'info';
  readonly detail: string;
}

/** The gate, allowlist and domain lines, from the pipeline's refusal (if any) and the target. */
export function policySteps(
  tool: AnyToolDef,
  target: PolicyTarget | undefined,
  settings: EffectiveSettings,
  failure: unknown,
): ExplainStep[] {
  const reason = failure instanceof ToolPolicyError ? failure.reason : undefined;
  const steps: ExplainStep[] = [];
  if (tool.policy.requiresGateApproval) {
    steps.push(
      reason === 'gate_required'
        ? {
            step: 'policy',
            status: 'fail',
            detail: 'needs a human gate → gate_required (--gate-approved)',
          }
        : { step: 'policy', status: 'pass', detail: 'human gate approved' },
    );
  }
  if (tool.policy.spawnsProcess && target?.command !== undefined) {
    steps.push(allowlistStep(target, settings, reason === 'command_not_allowed'));
  }
  if (tool.policy.egress === 'http' && target?.url !== undefined) {
    steps.push(domainStep(target.url, settings, reason));
  }
  if (reason !== undefined && steps.every((step) => step.status !== 'fail')) {
    steps.push({ step: 'policy', status: 'fail', detail: `refused → ${reason}` });
  }
  return steps;
}

function allowlistStep(
  target: PolicyTarget,
  settings: EffectiveSettings,
  refused: boolean,
): ExplainStep {
  const command = target.command ?? '';
  const shown = JSON.stringify(redactText(command));
  const { allowedCommands, allowedCommandGlobs } = settings.toolPolicy;
  if (allowedCommands.includes(command)) {
    return {
      step: 'allowlist',
      status: 'pass',
      detail: `${shown} is an exact allowedCommands entry`,
    };
  }
  const glob = allowedCommandGlobs.find((entry) => matchCommandGlob(entry, command));
  if (glob === undefined) {
    const empty = allowedCommands.length === 0 && allowedCommandGlobs.length === 0;
    return {
      step: 'allowlist',
      status: 'fail',
      detail: `${shown} matches no exact entry and no glob${empty ? ' (both lists are empty: deny all)' : ''} → command_not_allowed`,
    };
  }
  if (refused) {
    const trap = findArgumentTrap(target.argv ?? command.split(' ')) ?? 'an argument trap';
    return {
      step: 'allowlist',
      status: 'fail',
      detail: `${shown} matches glob ${JSON.stringify(glob)} but trips the argument-trap floor (${trap}) → command_not_allowed`,
    };
  }
  return {
    step: 'allowlist',
    status: 'pass',
    detail: `${shown} matches glob ${JSON.stringify(glob)} and passes the argument-trap floor`,
  };
}

function domainStep(
  url: string,
  settings: EffectiveSettings,
  reason: string | undefined,
): ExplainStep {
  let host = '(unparseable URL)';
  try {
    host = new URL(url).hostname;
  } catch {
    // keep the placeholder: the pipeline refuses it anyway
  }
  if (reason === 'insecure_url') {
    return { step: 'domain', status: 'fail', detail: 'not an https URL → insecure_url' };
  }
  if (reason === 'domain_not_allowed') {
    const empty = settings.toolPolicy.allowedDomains.length === 0;
    return {
      step: 'domain',
      status: 'fail',
      detail: `${host} is not in allowedDomains${empty ? ' (empty: deny all)' : ''} → domain_not_allowed`,
    };
  }
  return {
    step: 'domain',
    status: 'pass',
    detail: `${host} is in allowedDomains (the SSRF floor re-checks every resolved address at run time)`,
  };
}

/** The lexical fs floor line; true when it refuses. */
export function fsStep(
  tool: AnyToolDef,
  target: PolicyTarget | undefined,
  settings: EffectiveSettings,
  steps: ExplainStep[],
): boolean {
  if (!tool.policy.fsScoped || target?.path === undefined) return false;
  const verdict = judgeFsPath(
    target.path,
    tool.policy.fsWrite === true ? 'write' : 'read',
    settings,
  );
  steps.push({
    step: 'fs',
    status: verdict.allowed ? 'pass' : 'fail',
    detail: verdict.allowed ? verdict.detail : `${verdict.detail} → ${verdict.rule}`,
  });
  return !verdict.allowed;
}

/** What the configured mode would decide, asked of the real confirm hook with a stand-in human. */
export async function approvalStep(
  tool: AnyToolDef,
  request: ToolApprovalRequest | undefined,
  settings: EffectiveSettings,
): Promise<ExplainStep> {
  if (request === undefined) {
    return {
      step: 'approval',
      status: 'pass',
      detail: 'not a governed action: no approval needed',
    };
  }
  let asked = false;
  const confirm = createConfirmHook({
    mode: settings.mode,
    prompter: {
      ask: () => {
        asked = true;
        return Promise.resolve({ choice: 'no' });
      },
    },
    paths: {
      root: settings.root,
      stateDir: settings.stateDir,
      configFile: settings.configFile,
    },
  });
  const decision = await confirm(request);
  const label = `${request.action} action of ${tool.id}`;
  if (asked) {
    return {
      step: 'approval',
      status: 'ask',
      detail: `${label}: mode ${settings.mode} asks a human (refused without a terminal, with --json or under CI)`,
    };
  }
  return decision.outcome === 'approve'
    ? { step: 'approval', status: 'pass', detail: `${label}: mode ${settings.mode} approves it` }
    : { step: 'approval', status: 'fail', detail: `${label}: ${decision.reason ?? 'refused'}` };
}

/** What a spawned command would see: the sandbox's floors, the host, or a fail-closed refusal. */
export function sandboxStep(
  containment: ContainmentDescription | undefined,
  settings: EffectiveSettings,
): ExplainStep {
  if (containment === undefined) {
    return { step: 'sandbox', status: 'info', detail: 'not reported by the process arm' };
  }
  const { sandbox } = containment;
  if (sandbox.mode === 'off') {
    return { step: 'sandbox', status: 'info', detail: renderSandboxMode(sandbox, settings) };
  }
  if (!sandbox.available) {
    return {
      step: 'sandbox',
      status: 'fail',
      detail: `required but unavailable (${sandbox.why ?? 'unknown'}) → sandbox_unavailable; ${SANDBOX_FIX}`,
    };
  }
  return {
    step: 'sandbox',
    status: 'info',
    detail: [
      `${sandbox.version ?? 'bubblewrap'}; filesystem: ${sandbox.filesystem}`,
      `network: ${renderNetwork(sandbox)}`,
      `seccomp: ${renderSeccomp(sandbox)}`,
      `capabilities: ${sandbox.capabilities}`,
    ].join('; '),
  };
}

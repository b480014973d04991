import type { ToolDispatchContext, ToolPolicy } from '../dispatch-context.js';
import { ToolPolicyError } from '../errors.js';
import { findArgumentTrap } from '../policy/argument-traps.js';
import { isMcpCallAllowed } from '../policy/is-mcp-call-allowed.js';
import { matchCommandGlob } from '../policy/match-command-glob.js';
import { normalizeHost } from '../policy/normalize-host.js';
import { parseUrl } from '../policy/parse-url.js';
import type { AnyToolDef, PolicyTarget } from '../tool-def.js';

/**
 * Step 5: the guardrails, on the EFFECTIVE args' target (an `inputMapping`-derived command or
 * URL is judged exactly like a model's). Empty or absent allowlists deny all.
 */
export function enforcePolicy(
  tool: AnyToolDef,
  target: PolicyTarget | undefined,
  ctx: Pick<ToolDispatchContext, 'gateApproved' | 'toolPolicy' | 'grantedToolIds'>,
): void {
  const { policy } = tool;
  if (policy.requiresGateApproval && !ctx.gateApproved) {
    throw new ToolPolicyError(tool.id, 'gate_required');
  }
  // A tool with no target at all runs a config-pinned command (`git_status`); one that has a
  // target but names no command fails closed rather than skipping the allowlist.
  if (policy.spawnsProcess && tool.policyTarget !== undefined) {
    if (!isCommandAllowed(target, ctx.toolPolicy)) {
      throw new ToolPolicyError(tool.id, 'command_not_allowed');
    }
  }
  if (policy.egress === 'http') checkHttpTarget(tool, target?.url, ctx.toolPolicy);
  // A call that names its server and tool (`mcp_call`, a discovered tool) reaches only what the
  // grant or `allowedMcpTools` names; one that names neither has nothing to reach.
  if (policy.egress === 'mcp') {
    const { server, tool: name } = target ?? {};
    if (
      server === undefined ||
      name === undefined ||
      !isMcpCallAllowed(server, name, ctx.grantedToolIds, ctx.toolPolicy)
    ) {
      throw new ToolPolicyError(tool.id, 'mcp_tool_not_allowed');
    }
  }
}

function isCommandAllowed(target: PolicyTarget | undefined, policy: ToolPolicy): boolean {
  const command = target?.command;
  if (command === undefined || command === '') return false;
  // Exact entries are the author's explicit choice and skip the argument-trap floor. The match
  // is on argument boundaries too: `['npm', 'run test']` is not the entry `npm run test`.
  const argv = target?.argv;
  const unambiguous = argv === undefined || argv.every((arg) => arg !== '' && !arg.includes(' '));
  if (unambiguous && policy.allowedCommands?.includes(command) === true) return true;
  const globs = policy.allowedCommandGlobs;
  if (globs === undefined || !globs.some((glob) => matchCommandGlob(glob, command))) return false;
  // A glob re-opens option smuggling (`git log *` ⊇ `git log --output=x`): the trap floor closes it.
  return findArgumentTrap(target?.argv ?? command.split(' '), policy) === undefined;
}

function checkHttpTarget(tool: AnyToolDef, url: string | undefined, policy: ToolPolicy): void {
  const parsed = url === undefined ? undefined : parseUrl(url);
  if (parsed === undefined || parsed.protocol !== 'https:') {
    throw new ToolPolicyError(tool.id, 'insecure_url');
  }
  // Userinfo is a credential in the URL (and a classic allowlist-confusion trick).
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ToolPolicyError(tool.id, 'insecure_url');
  }
  const host = normalizeHost(parsed.hostname);
  const allowed = policy.allowedDomains ?? [];
  if (host === undefined || !allowed.some((entry) => normalizedEntry(entry) === host)) {
    throw new ToolPolicyError(tool.id, 'domain_not_allowed');
  }
}

// Entries are strings, so memoising their normal form is always current (unlike caching per
// allowlist array, which a caller could mutate); bounded so config churn cannot grow it forever.
const normalizedEntries = new Map<string, string | undefined>();

function normalizedEntry(entry: string): string | undefined {
  if (normalizedEntries.has(entry)) return normalizedEntries.get(entry);
  if (normalizedEntries.size >= 1024) normalizedEntries.clear();
  const host = normalizeHost(entry);
  normalizedEntries.set(entry, host);
  return host;
}

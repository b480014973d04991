import type { AnyToolDef, ToolHost } from '@toolhost/core';
import { createFsArm } from './fs/create-fs-arm.js';
import { createJail } from './fs/jail.js';
import type { Jail } from './fs/jail.js';
import { createHostPreflight } from './host-preflight.js';
import { resolveHostOptions } from './host-options.js';
import { createMcpArmLazily } from './mcp/create-mcp-arm-lazily.js';
import type { McpArmReport } from './mcp/create-mcp-arm.js';
import type { NodeToolHostOptions, ResolvedHostOptions } from './host-options.js';
import { createMediaStore } from './media-store/create-media-store.js';
import type { NodeMediaStore } from './media-store/create-media-store.js';
import { withCallHostViews } from './output-store/call-host-view.js';
import { createOutputStore } from './output-store/create-output-store.js';
import type { NodeOutputStore } from './output-store/create-output-store.js';
import {
  createEgressConnectionBudget,
  type EgressConnectionBudget,
} from './process/sandbox/egress-connection-budget.js';

/** What `createNodeToolHost` returns: the host for `createToolRegistry`, and its teardown. */
export interface NodeToolHostHandle {
  readonly host: ToolHost;
  /** Tools discovered on the `mcp` servers: register them beside the built-ins. */
  readonly mcpTools: readonly AnyToolDef[];
  /** What MCP discovery connected and skipped, and why; absent without `mcp`. */
  readonly mcpReport?: McpArmReport;
  /** Sweeps the run's spills and the media no other run references, frees every arm; idempotent. */
  close(): Promise<void>;
}

/**
 * The shared parts every arm is built from. An arm factory takes this one object:
 * `process: createProcessArm(parts)`. `onClose` registers the arm's own teardown.
 */
export interface NodeHostParts {
  readonly options: ResolvedHostOptions;
  /** The fs jail: also what jails a process `cwd`. */
  readonly jail: Jail;
  readonly outputStore: NodeOutputStore;
  readonly media: NodeMediaStore;
  /** Open sandbox proxy connections of the whole host, capped at `process.network.maxConnections`. */
  readonly egressConnections?: EgressConnectionBudget;
  onClose(teardown: () => Promise<void>): void;
}

/** Assembles the Node `ToolHost` from its arms; invalid options fail here, not on first use. */
export async function createNodeToolHost(
  options: NodeToolHostOptions,
): Promise<NodeToolHostHandle> {
  const resolved = await resolveHostOptions(options);
  // Each part registers its teardown as soon as it exists: a later part that fails (a bad
  // process option, an MCP server that will not start) must not leak the spill directory or the
  // jail's descriptors of a host nobody will ever close. Later parts go first, so they are torn
  // down before the jail and the spill they use.
  const teardowns: (() => Promise<void>)[] = [];
  const onClose = (teardown: () => Promise<void>): void => void teardowns.unshift(teardown);
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      for (const teardown of teardowns) await teardown();
    })();
    return closing;
  };
  try {
    const outputStore = await createOutputStore(
      resolved.stateDir,
      resolved.runId,
      Date.now(),
      resolved.spillQuota,
    );
    onClose(() => outputStore.close());
    const media = await createMediaStore(resolved.stateDir, resolved.runId);
    onClose(() => media.close());
    const jail = await createJail({
      root: resolved.root,
      fsScope: resolved.fsScope,
      extraRoots: resolved.extraRoots,
      floor: {
        stateDir: resolved.stateDir,
        spillDir: outputStore.directory,
        configFile: resolved.configFile,
      },
    });
    onClose(() => jail.close());
    // One count for every sandbox of the host, the process arm's spawns and each MCP server's.
    const egressConnections = createEgressConnectionBudget(
      resolved.process?.network?.maxConnections,
    );
    const parts: NodeHostParts = {
      options: resolved,
      jail,
      outputStore,
      media,
      egressConnections,
      onClose,
    };
    const egress =
      resolved.egress === undefined
        ? {}
        : (await import('./egress/create-host-egress-arm.js')).createHostEgressArm(parts);
    const arms: ToolHost = {
      fs: createFsArm(parts.jail, parts.media, resolved.readOnly),
      outputStore,
      media,
      // Each arm's code loads only when its options are given: a host that reads files never
      // pays for the HTTP client, the sandbox or the OS helpers (`toolhost call` start-up).
      ...egress,
      ...(resolved.process === undefined
        ? {}
        : (await import('./process/create-host-process-arm.js')).createHostProcessArm(parts)),
      ...(resolved.os === undefined
        ? {}
        : (await import('./os/create-host-os-arm.js')).createHostOsArm(parts)),
      // One line per arm, each built from `parts`, e.g. `process: createProcessArm(parts),`
    };
    const host: ToolHost = {
      ...arms,
      preflight: createHostPreflight({
        jail,
        ...(egress.egress === undefined ? {} : { judgeUrl: egress.egress.judgeUrl }),
      }),
    };
    // Last, because it spawns servers.
    const mcp =
      resolved.mcp === undefined
        ? undefined
        : await createMcpArmLazily({
            ...resolved.mcp,
            // A stdio server sees what the jail allows, like a command: tier, roots, floors.
            ...(resolved.mcp.sandbox === undefined && resolved.process?.sandbox !== undefined
              ? { sandbox: resolved.process.sandbox }
              : {}),
            sandboxContext: {
              fsScope: resolved.fsScope,
              roots: [resolved.root, ...resolved.extraRoots],
              floor: {
                stateDir: resolved.stateDir,
                spillDir: outputStore.directory,
                configFile: resolved.configFile,
              },
              stateDir: resolved.stateDir,
              hostEnv: process.env,
              egressConnections,
              // A stdio server's git quarantine is reported where a command's is.
              ...(resolved.process?.onQuarantine === undefined
                ? {}
                : { onQuarantine: resolved.process.onQuarantine }),
            },
          });
    if (mcp !== undefined) onClose(() => mcp.close());
    return {
      // Each call gets a view of the host that holds its spill budget (`forCall`).
      host: withCallHostViews(
        mcp === undefined ? host : { ...host, mcp: mcp.capability },
        outputStore,
      ),
      mcpTools: mcp?.tools ?? [],
      ...(mcp === undefined ? {} : { mcpReport: mcp.report }),
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

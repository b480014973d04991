import {
  createSandbox,
  defaultSandboxMode,
  standaloneSandboxContext,
  type Sandbox,
  type SandboxContext,
} from '../process/sandbox/create-sandbox.js';
import { createEgressConnectionBudget } from '../process/sandbox/egress-connection-budget.js';
import {
  checkSandboxAllowance,
  checkSandboxMode,
  type SandboxAllowance,
  type SandboxMode,
  type SandboxNetworkOptions,
} from '../process/sandbox/sandbox-options.js';
/** A value taken from the host's secret store, never written into the config. */
export interface CredentialValue {
  readonly credentialRef: string;
}

/** A declared env or header value: plain (non-secret) text or a host-resolved credential. */
export type DeclaredValue = string | CredentialValue;

/** An MCP server launched as a child process speaking stdio. */
export interface McpStdioServerDeclaration {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args?: readonly string[];
  /** Merged over the minimal base env; the ambient environment is never inherited. */
  readonly env?: Readonly<Record<string, DeclaredValue>>;
  readonly cwd?: string;
  /** Only these tool names are exposed; absent ⇒ every discovered tool. */
  readonly tools?: readonly string[];
  /** Per-call timeout; absent ⇒ the arm's default. */
  readonly callTimeoutMs?: number;
  /** `off` runs this server on the host, knowingly; default: the arm's mode (`required` on Linux). */
  readonly sandbox?: SandboxMode;
  /** Exact host names the server may reach over HTTPS (an API client); default none. */
  readonly network?: SandboxNetworkOptions;
  /** Absolute host paths the server also sees read-only / read-write (its data directory). */
  readonly readOnlyPaths?: readonly string[];
  readonly readWritePaths?: readonly string[];
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServerDeclaration {
  readonly transport: 'http';
  /** https only, unless its `host:port` is the declared `allowLocal`. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, DeclaredValue>>;
  /** One `host:port` (e.g. `127.0.0.1:8931`) allowed over plain http and loopback. */
  readonly allowLocal?: string;
  readonly tools?: readonly string[];
  readonly callTimeoutMs?: number;
}

/** One declared MCP server. */
export type McpServerDeclaration = McpStdioServerDeclaration | McpHttpServerDeclaration;

/** Options of `createMcpArm`. */
export interface McpArmOptions {
  /** Server name → declaration; the name becomes the `{server}` of `mcp_{server}_{tool}`. */
  readonly servers: Readonly<Record<string, McpServerDeclaration>>;
  /** Resolves a `credentialRef` inside the host; absent ⇒ `env:NAME` and `file:/path` refs. */
  readonly resolveCredential?: (ref: string) => string | Promise<string>;
  /** Default per-call timeout (60 s). */
  readonly callTimeoutMs?: number;
  /** Budget for spawning, initialising and listing one server (15 s). */
  readonly connectTimeoutMs?: number;
  /** Grace between closing stdin, SIGTERM and SIGKILL of a stdio server (2 s). */
  readonly killGraceMs?: number;
  /** Ids already taken (the built-ins): a discovered tool never shadows one. */
  readonly reservedIds?: Iterable<string>;
  /** Sandbox mode of every stdio server (`required` on Linux); a server entry may say `off`. */
  readonly sandbox?: SandboxMode;
  /** What the host's jail knows (tier, roots, floors); the host fills it in. */
  readonly sandboxContext?: SandboxContext;
}

/** The options after `resolveMcpArmOptions`: defaults filled, names and URLs checked. */
export interface ResolvedMcpArmOptions {
  readonly servers: ReadonlyMap<string, McpServerDeclaration>;
  readonly resolveCredential: (ref: string) => string | Promise<string>;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly killGraceMs: number;
  readonly reservedIds: ReadonlySet<string>;
  /** Builds the sandbox of one stdio server from its own allowance. */
  readonly sandboxFor: (declaration: McpStdioServerDeclaration) => Sandbox;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Fills defaults and rejects bad declarations at creation, not on first use. */
export function resolveMcpArmOptions(
  options: McpArmOptions,
  defaultResolveCredential: (ref: string) => string | Promise<string>,
): ResolvedMcpArmOptions {
  const {
    callTimeoutMs = 60_000,
    connectTimeoutMs = 15_000,
    killGraceMs = 2_000,
    resolveCredential = defaultResolveCredential,
  } = options;
  for (const [label, value] of [
    ['callTimeoutMs', callTimeoutMs],
    ['connectTimeoutMs', connectTimeoutMs],
    ['killGraceMs', killGraceMs],
  ] as const) {
    if (!(value > 0)) throw new TypeError(`toolhost: mcp ${label} must be positive`);
  }
  const servers = new Map<string, McpServerDeclaration>();
  for (const [name, declaration] of Object.entries(options.servers)) {
    // The name is spliced into tool ids and error text, so it must be a plain identifier.
    if (!SERVER_NAME.test(name))
      throw new TypeError('toolhost: mcp server names must match [A-Za-z0-9_-]{1,64}');
    checkDeclaration(name, declaration);
    servers.set(name, declaration);
  }
  return {
    servers,
    resolveCredential,
    callTimeoutMs,
    connectTimeoutMs,
    killGraceMs,
    reservedIds: new Set(options.reservedIds ?? []),
    sandboxFor: sandboxFactory(options),
  };
}

function checkDeclaration(name: string, declaration: McpServerDeclaration): void {
  if (declaration.callTimeoutMs !== undefined && !(declaration.callTimeoutMs > 0)) {
    throw new TypeError(`toolhost: mcp server ${name}: callTimeoutMs must be positive`);
  }
  if (declaration.transport === 'stdio') {
    if (typeof declaration.command !== 'string' || declaration.command === '') {
      throw new TypeError(`toolhost: mcp server ${name}: command is required`);
    }
    if (declaration.sandbox !== undefined)
      checkSandboxMode(declaration.sandbox, `mcp server ${name}`);
    checkSandboxAllowance(declaration, `mcp server ${name}`);
    // The total is the host's, shared with every other sandbox: no one server may raise it.
    if (declaration.network?.maxConnections !== undefined) {
      throw new TypeError(
        `toolhost: mcp server ${name}: network.maxConnections is host-wide; set it on process.network`,
      );
    }
    return;
  }
  if (declaration.transport !== 'http') {
    throw new TypeError(`toolhost: mcp server ${name}: transport must be stdio or http`);
  }
  if (!URL.canParse(declaration.url)) {
    throw new TypeError(`toolhost: mcp server ${name}: url is not a valid URL`);
  }
}

// Each server gets its own allowance over the host's view; absent context (an arm built on its
// own), the server's cwd is its workspace.
function sandboxFactory(
  options: McpArmOptions,
): (declaration: McpStdioServerDeclaration) => Sandbox {
  const armMode = options.sandbox ?? defaultSandboxMode();
  checkSandboxMode(armMode, 'mcp');
  // An arm built without a host still caps its servers' connections together.
  const egressConnections =
    options.sandboxContext?.egressConnections ?? createEgressConnectionBudget();
  return (declaration) => {
    const root = declaration.cwd ?? process.cwd();
    const context: SandboxContext = {
      ...(options.sandboxContext ?? standaloneSandboxContext(root, process.env)),
      egressConnections,
    };
    return createSandbox(declaration.sandbox ?? armMode, allowanceOf(declaration), context);
  };
}

function allowanceOf(declaration: McpStdioServerDeclaration): SandboxAllowance {
  return {
    ...(declaration.network === undefined ? {} : { network: declaration.network }),
    ...(declaration.readOnlyPaths === undefined
      ? {}
      : { readOnlyPaths: declaration.readOnlyPaths }),
    ...(declaration.readWritePaths === undefined
      ? {}
      : { readWritePaths: declaration.readWritePaths }),
  };
}

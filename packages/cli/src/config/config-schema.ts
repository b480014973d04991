import { z } from 'zod';
import { DEFAULT_GRANT } from './default-grant.js';

/** Approval modes: `ask` and `plan` refuse governed actions, `accept-edits` prompts, `auto` approves. */
export const APPROVAL_MODES = ['ask', 'plan', 'accept-edits', 'auto'] as const;

/** One of `APPROVAL_MODES`. */
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The FS scope tiers a config may choose. */
export const FS_SCOPES = ['sandboxed', 'project', 'full'] as const;

/** `required`: every child runs inside bubblewrap (fails closed without it); `off`: on the host. */
export const SANDBOX_MODES = ['required', 'off'] as const;

const toolId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a tool id: letters, digits, _ or -');
const nonEmpty = z.string().min(1);
// An environment variable name: the only way a config points at a secret held in the environment.
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

// The host refuses these anyway; refusing them here names the field and fails before any host
// exists. `/` itself would be the whole machine, a `..` segment hides where the path really goes.
const sandboxPath = z
  .string()
  .regex(
    /^(?![^\0]*\/\.\.(?:\/|$))\/(?=[^\0]*[^/\0])[^\0]*$/,
    'an absolute path: not /, no .. segment',
  );

const sandboxNetworkShape = {
  allowedDomains: z
    .array(nonEmpty)
    .describe('Exact host names reachable over HTTPS through the host-side proxy.'),
  maxConnectionsPerSandbox: z
    .int()
    .positive()
    .optional()
    .describe(
      'Proxy connections one sandboxed child may hold open at once; past it each is closed at accept. Default 256.',
    ),
};

const sandboxNetworkSchema = z
  .strictObject(sandboxNetworkShape)
  .describe('Network of the sandbox. Absent or no domains: no network at all.');

// The total is the host's, shared by every sandbox: only the process section may set it.
const processNetworkSchema = z
  .strictObject({
    ...sandboxNetworkShape,
    maxConnections: z
      .int()
      .positive()
      .optional()
      .describe(
        'Proxy connections all sandboxes of the session (commands and MCP servers) may hold open together. Default 1024.',
      ),
  })
  .describe('Network of the sandbox. Absent or no domains: no network at all.');

// Shared by the process arm and each stdio MCP server: what a sandboxed child may reach.
const sandboxAllowanceShape = {
  network: sandboxNetworkSchema.optional(),
  readOnlyPaths: z
    .array(sandboxPath)
    .optional()
    .describe('Absolute host paths also visible read-only (a toolchain home, a data directory).'),
  readWritePaths: z
    .array(sandboxPath)
    .optional()
    .describe('Absolute host paths also writable (the write floor still applies inside).'),
};

const processSchema = z
  .strictObject({
    sandbox: z
      .enum(SANDBOX_MODES)
      .optional()
      .describe('Process sandbox (bubblewrap). Default: required on Linux, off elsewhere.'),
    ...sandboxAllowanceShape,
    network: processNetworkSchema.optional(),
  })
  .describe('What every spawned command (run_command, git_*) may see and reach.');

const credentialSchema = z.union([
  z.strictObject({ env: envName }).describe('Read the secret from this environment variable.'),
  z.strictObject({ file: nonEmpty }).describe('Read the secret from this file (first line).'),
]);

// A secret never sits in the config: an env/header value is plain text or a named credential.
const declaredValue = z.union([
  z.string(),
  z.strictObject({ credential: nonEmpty.describe('A name from `credentials`.') }),
]);

const stdioServerSchema = z.strictObject({
  transport: z.literal('stdio').optional(),
  command: nonEmpty.describe('Executable of the MCP server, resolved on PATH.'),
  args: z.array(z.string()).optional(),
  env: z
    .record(envName, declaredValue)
    .optional()
    .describe('Variables set over a minimal base environment (never the ambient one).'),
  cwd: nonEmpty.optional(),
  tools: z.array(nonEmpty).optional().describe('Only expose these tools of the server.'),
  callTimeoutMs: z.int().positive().optional(),
  sandbox: z
    .enum(SANDBOX_MODES)
    .optional()
    .describe('`off` runs this server on the host, knowingly. Default: process.sandbox.'),
  ...sandboxAllowanceShape,
});

const httpServerSchema = z.strictObject({
  transport: z.literal('http').optional(),
  url: z.url().describe('Streamable HTTP endpoint; https unless it is the allowLocal host:port.'),
  headers: z.record(nonEmpty, declaredValue).optional(),
  allowLocal: nonEmpty
    .optional()
    .describe('One host:port allowed over plain http and loopback, e.g. 127.0.0.1:8931.'),
  tools: z.array(nonEmpty).optional().describe('Only expose these tools of the server.'),
  callTimeoutMs: z.int().positive().optional(),
});

/** The zod schema of `toolhost.config.json`; strict at every level so a typo is an error. */
export const toolhostConfigSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Editor hint: the published JSON Schema.'),
    $comment: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('Free text for humans; ignored (JSON has no comments).'),
    tools: z
      .array(toolId)
      .optional()
      .describe(`The grant: tool ids a call may use. Default: ${DEFAULT_GRANT.join(', ')}.`),
    fsScope: z.enum(FS_SCOPES).optional().describe('Filesystem tier. Default: sandboxed.'),
    extraRoots: z
      .array(nonEmpty)
      .optional()
      .describe('Extra directories readable in the project tier (absolute or config-relative).'),
    allowedCommands: z
      .array(z.string())
      .optional()
      .describe('Exact command strings (command + args joined by one space). Empty: deny all.'),
    allowedCommandGlobs: z
      .array(z.string())
      .optional()
      .describe(
        'Whole-string `*`/`?` globs; a glob-only match also passes the argument-trap floor.',
      ),
    allowedDomains: z
      .array(nonEmpty)
      .optional()
      .describe('Exact hosts for http_request. Empty: deny all.'),
    allowedMcpTools: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}\/.+$/, 'server/tool or server/*'))
      .optional()
      .describe(
        'What mcp_call may reach besides the granted mcp_{server}_{tool} tools: "server/tool", or "server/*" for every tool of a server. Empty: only those granted.',
      ),
    mode: z
      .enum(APPROVAL_MODES)
      .optional()
      .describe('Approval mode for governed actions. Default: ask.'),
    limits: z
      .strictObject({
        maxBytes: z.int().positive().optional(),
        maxLines: z.int().positive().optional(),
        cpuSeconds: z
          .int()
          .positive()
          .optional()
          .describe('CPU-seconds budget of each command, enforced by the OS (prlimit).'),
        memoryBytes: z
          .int()
          .positive()
          .optional()
          .describe('Address-space budget of each command in bytes, enforced by the OS (prlimit).'),
        openFiles: z
          .int()
          .positive()
          .optional()
          .describe('Descriptors each command may hold open at once (prlimit RLIMIT_NOFILE).'),
        fileSizeBytes: z
          .int()
          .positive()
          .optional()
          .describe('Largest file each command may write, in bytes (prlimit RLIMIT_FSIZE).'),
        treeMemoryBytes: z
          .int()
          .positive()
          .optional()
          .describe(
            'Resident memory of the whole process tree (cgroup v2); reported unenforced without a delegated cgroup.',
          ),
        pids: z
          .int()
          .positive()
          .optional()
          .describe(
            'Processes and threads of the whole tree (cgroup v2); reported unenforced without a delegated cgroup.',
          ),
      })
      .optional()
      .describe(
        'Result ceilings (default 51200 bytes / 2000 lines) and command budgets (default none).',
      ),
    process: processSchema.optional(),
    toolConfig: z
      .record(toolId, z.record(nonEmpty, z.unknown()))
      .optional()
      .describe('Per-tool config-only values, e.g. run_command.timeoutMs, web_search.endpoint.'),
    mcpServers: z
      .record(
        z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
        z.union([stdioServerSchema, httpServerSchema]),
      )
      .optional()
      .describe('MCP servers whose tools are proxied through the same guardrails.'),
    credentials: z
      .record(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/), credentialSchema)
      .optional()
      .describe('Named credentialRefs: where the host finds each secret. Never the secret itself.'),
  })
  .describe('toolhost configuration (toolhost.config.json)');

/** A parsed, validated `toolhost.config.json`. */
export type ToolhostConfig = z.infer<typeof toolhostConfigSchema>;

/** A credential source: an environment variable or a file. */
export type CredentialSource = z.infer<typeof credentialSchema>;

/** The `process` section: sandbox mode and what a sandboxed command may reach. */
export type ProcessConfig = z.infer<typeof processSchema>;

/** One configured MCP server. */
export type McpServerConfig = z.infer<typeof stdioServerSchema> | z.infer<typeof httpServerSchema>;

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startServeHttp,
  type ServeHttpProcess,
} from '../../src/mcp/test-support/serve-http-process.js';
import { REPO_ROOT } from '../../src/mcp/test-support/serve-client.js';

const run = promisify(execFile);
// The package's bin (it exports no entry point), from the root devDependency.
const CONFORMANCE = path.join(
  REPO_ROOT,
  'node_modules/@modelcontextprotocol/conformance/dist/index.js',
);

/** The server scenarios of @modelcontextprotocol/conformance 0.1.16 toolhost must pass. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
] as const;

// Each of these drives a fixture tool, resource or prompt of the suite's reference server;
// toolhost serves only its guarded built-ins, so running them would test nothing of ours (or
// "pass" on an unknown tool's error). Where toolhost has the behaviour, its own test is named.
const FIXTURE_TOOL = (tool: string, ours?: string) =>
  `calls the suite's \`${tool}\` fixture tool, which toolhost does not serve${ours === undefined ? '' : `; ${ours}`}`;
const NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'logging-set-level':
    'toolhost serve declares no `logging` capability (it reports on stderr and in the audit log)',
  'completion-complete': 'toolhost serves no prompts or resource templates to complete',
  'tools-call-simple-text': FIXTURE_TOOL('test_simple_text'),
  'tools-call-image': FIXTURE_TOOL('test_image_content', 'media: serve-results.test.ts'),
  'tools-call-audio': FIXTURE_TOOL('test_audio_content', 'media: to-media-content.test.ts'),
  'tools-call-embedded-resource': FIXTURE_TOOL(
    'test_embedded_resource',
    'media: serve-results.test.ts',
  ),
  'tools-call-mixed-content': FIXTURE_TOOL('test_multiple_content_types'),
  'tools-call-with-logging': FIXTURE_TOOL('test_tool_with_logging'),
  'tools-call-error': FIXTURE_TOOL('test_error_handling', 'tool errors: serve-results.test.ts'),
  'tools-call-with-progress': FIXTURE_TOOL(
    'test_tool_with_progress',
    'progress: serve-progress.test.ts',
  ),
  'tools-call-sampling': FIXTURE_TOOL('test_sampling', 'toolhost never asks the client to sample'),
  'tools-call-elicitation': FIXTURE_TOOL('test_elicitation', 'approvals: mcp-server.test.ts'),
  'elicitation-sep1034-defaults': FIXTURE_TOOL('test_elicitation_sep1034_defaults'),
  'elicitation-sep1330-enums': FIXTURE_TOOL('test_elicitation_sep1330_enums'),
  'json-schema-2020-12': FIXTURE_TOOL('json_schema_2020_12_tool'),
  'server-sse-polling':
    "calls the suite's `test_reconnection` fixture tool, and toolhost keeps no SSE event store to resume from; without the tool it records no check at all (a vacuous pass)",
  'resources-list': 'toolhost serve declares no `resources` capability',
  'resources-read-text': 'toolhost serve declares no `resources` capability',
  'resources-read-binary': 'toolhost serve declares no `resources` capability',
  'resources-templates-read': 'toolhost serve declares no `resources` capability',
  'resources-subscribe': 'toolhost serve declares no `resources` capability',
  'resources-unsubscribe': 'toolhost serve declares no `resources` capability',
  'prompts-list': 'toolhost serve declares no `prompts` capability',
  'prompts-get-simple': 'toolhost serve declares no `prompts` capability',
  'prompts-get-with-args': 'toolhost serve declares no `prompts` capability',
  'prompts-get-embedded-resource': 'toolhost serve declares no `prompts` capability',
  'prompts-get-with-image': 'toolhost serve declares no `prompts` capability',
};

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

// Issue 18 item 11: the official MCP conformance suite (server side) against a real
// `toolhost serve --http`, reached through the very URL it prints (token included).
describe('toolhost serve --http against @modelcontextprotocol/conformance', () => {
  let sandbox = '';
  let served: ServeHttpProcess;
  beforeAll(async () => {
    sandbox = await realpath(await mkdtemp(path.join(tmpdir(), 'toolhost-conformance-')));
    const root = path.join(sandbox, 'app');
    await mkdir(root);
    served = await startServeHttp(['--root', root, '--state-dir', path.join(sandbox, 'state')]);
  });
  afterAll(async () => {
    await served.stop();
    await rm(sandbox, { recursive: true, force: true });
  });

  it('classes every server scenario of the suite as applicable or not, with a reason', async () => {
    const { stdout } = await run(process.execPath, [CONFORMANCE, 'list', '--server']);
    const listed = [...stdout.matchAll(/^\s+- (\S+) \[/gmu)].map((match) => match[1]);

    expect(listed.length).toBeGreaterThan(20);
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
  });

  it.each(APPLICABLE)('passes %s with every check a success', async (scenario) => {
    const output = path.join(sandbox, 'results', scenario);
    const result = await run(
      process.execPath,
      [CONFORMANCE, 'server', '--url', served.url, '--scenario', scenario, '--output-dir', output],
      { maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: unknown) => error as { stdout?: string });
    const checks = await readChecks(output);

    // Not a vacuous pass: the scenario ran checks, and none of them is a failure or warning.
    expect(checks.length, result.stdout).toBeGreaterThan(0);
    expect(checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO')).toEqual(
      [],
    );
    expect(checks.some((check) => check.status === 'SUCCESS')).toBe(true);
  });
});

async function readChecks(output: string): Promise<Check[]> {
  const [run] = await readdir(output);
  if (run === undefined) return [];
  return JSON.parse(await readFile(path.join(output, run, 'checks.json'), 'utf8')) as Check[];
}

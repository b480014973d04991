// The library in twenty lines: one registry, one Node host, two guarded calls.
// Run: node --import tsx examples/library.ts [workspace-root]
import {
  BUILTIN_TOOLS,
  ToolDispatchError,
  createToolRegistry,
  unwrapUntrusted,
} from '@toolhost/core';
import { createNodeToolHost } from '@toolhost/node';

const { host, close } = await createNodeToolHost({ root: process.argv[2] ?? process.cwd() });
const registry = createToolRegistry({ tools: BUILTIN_TOOLS, host });
const ctx = {
  nodeId: 'example',
  grantedToolIds: new Set(['read_file', 'list_directory']),
  config: {},
  toolPolicy: {}, // no commands, no domains: deny all
  fsScope: 'sandboxed' as const,
  gateApproved: false,
};
try {
  const read = { id: 'call_1', name: 'read_file', args: { path: 'README.md', limit: 3 } };
  const outcome = await registry.dispatch(read, ctx);
  console.log(unwrapUntrusted(outcome.toolResult).result); // bounded, branded untrusted
  await registry.dispatch(
    { id: 'call_2', name: 'read_file', args: { path: '../../etc/passwd' } },
    ctx,
  );
} catch (error) {
  if (error instanceof ToolDispatchError) console.log(`refused: ${error.message}`);
} finally {
  await close();
}

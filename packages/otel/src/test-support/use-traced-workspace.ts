import type { NodeToolHostHandle } from '@toolhost/node';
import { afterEach, beforeEach } from 'vitest';
import { createTempRoot, startMemoryTracing, type MemoryTracing } from './traced-setup.js';

type TempRoot = Awaited<ReturnType<typeof createTempRoot>>;

/** What every traced test starts from, fresh for each test. */
export interface TracedWorkspace {
  readonly tracing: MemoryTracing;
  readonly workspace: TempRoot;
  readonly handle: NodeToolHostHandle;
}

/**
 * Registers the hooks that give each test in the enclosing `describe` in-memory tracing, a temp
 * root and the host `openHost` makes over it — and close all three after it, host first.
 */
export function useTracedWorkspace(
  openHost: (workspace: TempRoot) => Promise<NodeToolHostHandle>,
): TracedWorkspace {
  let current: TracedWorkspace | undefined;
  beforeEach(async () => {
    const tracing = startMemoryTracing();
    const workspace = await createTempRoot();
    current = { tracing, workspace, handle: await openHost(workspace) };
  });
  afterEach(async () => {
    const done = current;
    current = undefined;
    await done?.handle.close();
    await done?.tracing.shutdown();
    await done?.workspace.cleanup();
  });
  const now = (): TracedWorkspace => {
    if (current === undefined) throw new Error('useTracedWorkspace is read outside a test');
    return current;
  };
  return {
    get tracing() {
      return now().tracing;
    },
    get workspace() {
      return now().workspace;
    },
    get handle() {
      return now().handle;
    },
  };
}

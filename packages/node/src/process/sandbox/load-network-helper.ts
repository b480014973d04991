import { ToolUnavailableError } from '@toolhost/core';

/** The native helper that hands the sandbox's network namespace a listener. */
export interface SandboxNetHelper {
  readonly initPath: string;
  socketPair(): [number, number];
  receiveFd(fd: number, timeoutMs: number): Promise<number>;
  closeFd(fd: number): void;
}

// Optional: only a network allowance needs it, and without it that allowance fails closed.
export async function loadNetworkHelper(toolId: string): Promise<SandboxNetHelper> {
  let helper: SandboxNetHelper | undefined;
  try {
    helper = (await import('@toolhost/sandbox-net')).loadSandboxNet();
  } catch {
    helper = undefined;
  }
  if (helper === undefined) {
    throw new ToolUnavailableError(toolId, 'process', { reason: 'sandbox_network_unavailable' });
  }
  return helper;
}

/** Closes each descriptor, ignoring those already closed. */
export function closeQuietly(network: SandboxNetHelper, fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      network.closeFd(fd);
    } catch {
      // Already closed.
    }
  }
}

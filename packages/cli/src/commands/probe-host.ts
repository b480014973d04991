import type { ToolHost } from '@toolhost/core';

/** Thrown by every probe arm: reaching it means a dry run was about to cause a side effect. */
export class ProbeHostReachedError extends Error {
  override readonly name = 'ProbeHostReachedError';
}

/**
 * A host with the arms a Node host would have, every method refusing. `explain` runs the real
 * pipeline against it, so a bug that let the walk reach the host still has no effect.
 */
export function createProbeHost(options: { readonly readOnly: boolean }): ToolHost {
  const refuse = (): Promise<never> =>
    Promise.reject(new ProbeHostReachedError('toolhost explain: the probe host was reached'));
  return {
    fs: {
      readFile: refuse,
      listDirectory: refuse,
      ...(options.readOnly ? {} : { writeFile: refuse }),
    },
    process: { spawn: refuse },
    egress: { fetch: refuse },
    os: { readClipboard: refuse, notify: refuse },
    outputStore: { spill: refuse },
    media: { stat: refuse, read: refuse },
  };
}

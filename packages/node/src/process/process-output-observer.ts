/** One chunk of a running command's output, as it arrives. */
export interface ProcessOutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly chunk: Uint8Array;
}

/** A host-level observer of command output (e.g. the CLI's progress line); read-only. */
export type ProcessOutputObserver = (output: ProcessOutputChunk) => void;

import type { SandboxMode } from './sandbox-options.js';

/** `required` on Linux, where bubblewrap exists; `off` elsewhere (doctor and serve say so). */
export function defaultSandboxMode(): SandboxMode {
  return process.platform === 'linux' ? 'required' : 'off';
}

import type { OsCapability } from '@toolhost/core/host';
import type { NodeHostParts } from '../create-node-tool-host.js';
import { createOsArm } from './create-os-arm.js';

/**
 * The `os` arm of `createNodeToolHost`, to spread into the host: `{}` unless the embedder passed
 * `os` options (clipboard and notifications are opted into, never a default).
 */
export function createHostOsArm(parts: NodeHostParts): { readonly os?: OsCapability } {
  const options = parts.options.os;
  return options === undefined ? {} : { os: createOsArm(options) };
}

// `@toolhost/node/egress`: the SSRF-safe egress arm on its own — its factory, the pinned
// dispatcher, and the URL, host and address checks it makes.
export { createEgressArm } from './egress/create-egress-arm.js';
export type { EgressArm } from './egress/create-egress-arm.js';
export { createPinnedDispatcher } from './egress/create-pinned-dispatcher.js';
export type {
  DialTarget,
  DialTcp,
  PinnedDispatcherOptions,
} from './egress/create-pinned-dispatcher.js';
export {
  assertHostAllowed,
  checkEgressUrl,
  normalizeAllowlist,
} from './egress/check-egress-url.js';
export { isGlobalUnicast } from './egress/is-global-unicast.js';
export { isBlockedHostname } from './egress/is-blocked-hostname.js';
export { resolveDestination } from './egress/resolve-destination.js';
export type {
  EgressAddress,
  EgressLookup,
  ResolvedDestination,
  ResolveDestinationOptions,
} from './egress/resolve-destination.js';

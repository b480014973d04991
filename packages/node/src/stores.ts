// `@toolhost/node/stores`: the host's output (spill) store and media store, and their defaults.
export { createMediaStore } from './media-store/create-media-store.js';
export type { MediaPutOptions, NodeMediaStore } from './media-store/create-media-store.js';
export { createOutputStore, SPILL_MAX_AGE_MS } from './output-store/create-output-store.js';
export type { NodeOutputStore } from './output-store/create-output-store.js';
export {
  DEFAULT_SPILL_BYTES_PER_CALL,
  DEFAULT_SPILL_BYTES_PER_RUN,
} from './output-store/spill-quota.js';

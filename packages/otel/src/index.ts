export { traceToolRegistry } from './trace-tool-registry.js';
export type { TraceToolRegistryOptions } from './trace-tool-registry.js';
export { toolTypeOf } from './tool-span-attributes.js';
export type { GenAiToolType } from './tool-span-attributes.js';
export type { ApprovalEventOutcome } from './trace-approval.js';
export { OTHER_ERROR_TYPE } from './record-failure.js';
export { MAX_CONTENT_ATTRIBUTE_LENGTH } from './clip-attribute.js';

// `@toolhost/core/bound`: bounding a result for the model — the ceilings, the rendering to text,
// UTF-8 sources and the inline-media backstop.
export { boundForModel } from './bound/bound-for-model.js';
export type { BoundedResult, BoundForModelOptions } from './bound/bound-for-model.js';
export { attachUtf8Source } from './bound/utf8-source.js';
export type { Utf8Source } from './bound/utf8-source.js';
export { DEFAULT_TOOL_RESULT_LIMITS } from './bound/default-tool-result-limits.js';
export { toModelText } from './bound/to-model-text.js';
export { backstopInlineMedia, INLINE_BASE64_MIN_RUN } from './bound/backstop-inline-media.js';

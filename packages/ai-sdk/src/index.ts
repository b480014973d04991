export { toolhostTools, toolhostSettings } from './toolhost-tools.js';
export type { AiSdkToolhostOptions } from './toolhost-tools.js';
export { toolhostStopWhen } from './toolhost-stop-when.js';
export type { ToolhostStopWhenOptions } from './toolhost-stop-when.js';
export { toolhostTurnError } from './toolhost-turn-error.js';
export { ToolCallFeedbackError } from './turn-marks.js';
export { toolhostApprovalPreview } from './sdk-approval.js';
export type { ToolApprovalRequestLike, ToolhostApprovalPreview } from './sdk-approval.js';

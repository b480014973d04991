export { toolhostAgentTools } from './toolhost-agent-tools.js';
export type { OpenAiAgentsToolhostOptions } from './toolhost-agent-tools.js';
export { toolhostRunError } from './turn-ending.js';
export { toolhostApprovalPreview } from './toolhost-approval-preview.js';
export type { ToolhostApprovalPreview } from './toolhost-approval-preview.js';
export { toolhostRunOptions } from './toolhost-run-options.js';
export type { ToolhostRunOptions } from './toolhost-run-options.js';

export { toolhostAgentTools, toolhostRunError } from './toolhost-agent-tools.js';
export type { OpenAiAgentsToolhostOptions } from './toolhost-agent-tools.js';

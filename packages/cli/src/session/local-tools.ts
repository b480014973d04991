// The tool list a session starts from, shared by the arm selection and the registry.
import { BUILTIN_TOOLS, WORKSPACE_TOOLS } from '@toolhost/core';

/** The tools every session registers before MCP discovery: the spec's 13 and the workspace tools. */
export const LOCAL_TOOLS = [...BUILTIN_TOOLS, ...WORKSPACE_TOOLS];

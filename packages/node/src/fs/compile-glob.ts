import { ToolArgsInvalidError, type ToolId } from '@toolhost/core';
import { globToRegex, GlobSyntaxError } from './glob-to-regex.js';

/** Whether a path (relative, `/`-separated) matches a compiled glob. */
export type GlobMatcher = (relative: string) => boolean;

/**
 * Compiles a model-chosen glob to a matcher that answers in time linear in the name: a glob with
 * more than one unbounded repetition (`*a*b*`, `**` with `*`) runs on RE2 (`re2js`, loaded on the
 * first such glob), which never backtracks; with at most one, V8's own engine cannot backtrack
 * more than linearly either, and is faster. A backtracking compile of `*a*a*a*…b` against a long
 * name blocked the host's event loop for seconds to minutes and could not be aborted.
 */
export async function compileGlob(
  toolId: ToolId,
  field: string,
  glob: string,
  options: { readonly basename?: boolean } = {},
): Promise<GlobMatcher> {
  let compiled;
  try {
    compiled = globToRegex(glob, options);
  } catch (error) {
    if (!(error instanceof GlobSyntaxError)) throw error;
    throw new ToolArgsInvalidError(toolId, [{ field, problem: 'unsupported_glob' }], {
      cause: error,
    });
  }
  if (compiled.repetitions <= 1 && compiled.posix !== true) {
    const native = new RegExp(compiled.source, 'u');
    return (relative) => native.test(relative);
  }
  const { RE2JS, RE2JSException } = await import('re2js');
  try {
    const engine = RE2JS.compile(compiled.source);
    return (relative) => engine.matches(relative);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    throw new ToolArgsInvalidError(toolId, [{ field, problem: 'unsupported_glob' }], {
      cause: error,
    });
  }
}

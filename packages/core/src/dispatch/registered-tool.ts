import type { AnyToolDef } from '../tool-def.js';

/** A tool as the registry holds it: the def plus what dispatch would otherwise recompute. */
export interface RegisteredTool {
  readonly def: AnyToolDef;
  readonly configOnly: ReadonlySet<string>;
}

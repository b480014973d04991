/**
 * Tools granted when neither the config nor `--tools` names any: the read-only ones. The one
 * definition `call`, `tools`, `serve` and the config schema's text share, so the CLI and the
 * MCP server never disagree about what "no grant" means.
 */
export const DEFAULT_GRANT: readonly string[] = Object.freeze([
  'git_status',
  'list_directory',
  'read_file',
  'search_files',
]);

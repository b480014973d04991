/**
 * True when `git config <args>` only reads. `git config get|list …` reads. Otherwise git parses
 * options only up to the first operand (PARSE_OPT_STOP_AT_NON_OPTION): `git config k v --get`
 * sets `k` to `v` with `--get` as its value pattern. So it is a read only when every option
 * before the first operand is a known read-side one and one of them is a read action; anything
 * unknown (`--edit`) counts as a write.
 */
export function isConfigRead(args: readonly string[]): boolean {
  const [first] = args;
  if (first === 'get' || first === 'list') return true;
  let reads = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--' || arg === '--end-of-options' || !arg.startsWith('-') || arg === '-') break;
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals === -1 ? undefined : equals);
      if (CONFIG_READ_ACTIONS.has(name) && equals === -1) reads = true;
      else if (CONFIG_VALUE_OPTIONS.has(name)) index += equals === -1 ? 1 : 0;
      else if (!CONFIG_READ_MODIFIERS.has(name) || equals !== -1) return false;
      continue;
    }
    // A short cluster: -l (list), -z (NUL), -f <file> (the rest, or the next argument).
    for (let position = 1; position < arg.length; position++) {
      const letter = arg[position];
      if (letter === 'l') reads = true;
      else if (letter === 'f') {
        if (position === arg.length - 1) index++;
        break;
      } else if (letter !== 'z') return false;
    }
  }
  return reads;
}

const CONFIG_READ_ACTIONS: ReadonlySet<string> = new Set([
  'get',
  'get-all',
  'get-regexp',
  'get-urlmatch',
  'get-color',
  'get-colorbool',
  'list',
]);
const CONFIG_VALUE_OPTIONS: ReadonlySet<string> = new Set(['file', 'blob', 'type', 'default']);
const CONFIG_READ_MODIFIERS: ReadonlySet<string> = new Set([
  'global',
  'system',
  'local',
  'worktree',
  'show-origin',
  'show-scope',
  'null',
  'name-only',
  'includes',
  'no-includes',
  'bool',
  'int',
  'bool-or-int',
  'path',
  'expiry-date',
  'fixed-value',
]);

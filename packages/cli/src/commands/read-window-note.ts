/**
 * The stderr line a windowed `read_file` earns when the file goes on past the window: how many
 * lines remain and the `offset` that reads on. Built only from what the result reports
 * (`more`, `totalLines`) and the call's own `offset`/`limit`; a count the host left out (past its
 * scan budget) is left out here too. Undefined for any other call or a window that reached the end.
 */
export function readWindowNote(toolId: string, args: unknown, result: unknown): string | undefined {
  if (toolId !== 'read_file' || !isRecord(args) || !isRecord(result)) return undefined;
  if (result['more'] !== true) return undefined;
  const offset = wholeNumber(args['offset']) ?? 0;
  const limit = wholeNumber(args['limit']);
  // `more` without a limit cannot be (the window ran to the end); no next offset to name.
  if (limit === undefined) return undefined;
  const next = offset + limit;
  const total = wholeNumber(result['totalLines']);
  const count =
    total === undefined || total <= next
      ? 'more lines follow'
      : `${total - next} more ${total - next === 1 ? 'line follows' : 'lines follow'} (of ${total})`;
  return `toolhost: ${count}: pass "offset": ${next} to continue`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

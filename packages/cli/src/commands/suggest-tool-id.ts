/**
 * The registered tool id nearest a mistyped one, for the CLI's human hint only: the model sees
 * the plain `UnknownToolError`, and the call never runs the suggestion (resolution stays exact).
 * Undefined when nothing is close enough to be a typo rather than a different word.
 */
export function suggestToolId(typed: string, knownIds: readonly string[]): string | undefined {
  // A budget that grows with the name: `ls` → `rm` (distance 2) is no typo, `read_fil` is.
  const budget = Math.min(2, Math.floor(typed.length / 3));
  let best: { readonly id: string; readonly distance: number } | undefined;
  for (const id of [...new Set(knownIds)].sort()) {
    if (id === typed) continue;
    const distance = editDistance(typed.toLowerCase(), id.toLowerCase());
    if (distance <= budget && (best === undefined || distance < best.distance)) {
      best = { id, distance };
    }
  }
  return best?.id;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition, each one edit):
 * `raed_file` is one slip from `read_file`, as a person types it.
 */
export function editDistance(a: string, b: string): number {
  // Ids are short (≤ 128 characters); a full table is simpler than a rolling one.
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j += 1) {
      if (i === 0 || j === 0) {
        row.push(i + j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        cellAt(rows, i - 1, j) + 1,
        (row[j - 1] ?? 0) + 1,
        cellAt(rows, i - 1, j - 1) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, cellAt(rows, i - 2, j - 2) + 1);
      }
      row.push(value);
    }
    rows.push(row);
  }
  return cellAt(rows, a.length, b.length);
}

function cellAt(rows: readonly (readonly number[])[], i: number, j: number): number {
  return rows[i]?.[j] ?? 0;
}

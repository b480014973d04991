// The sizing bounding used before it sized a result in place (`sectionsFitInPlace`): the
// equivalence test checks the new one against it. Test-only.
import { countLines } from '../count-lines.js';
import type { SectionSplit } from '../render-for-model.js';

/**
 * True when the rendering of `split` certainly fits `limits`, told from sizes alone: the lines
 * are counted, the bytes bounded (a UTF-16 unit is at most 3 UTF-8 bytes, the ASCII header rule
 * no longer than five plus one per line break that could start a run of `=`), and neither the
 * JSON head, nor the rule, nor a byte count is built. False means "measure it", not "over": a
 * head that is not all flat scalars (which JSON could refuse) is never judged here.
 */
export function legacySectionsFit(
  { rest, bulk }: SectionSplit,
  { maxBytes, maxLines }: { readonly maxBytes: number; readonly maxLines: number },
): boolean {
  const head = flatHeadBound(rest);
  if (head === undefined) return false;
  let lines = head.lines;
  let textUnits = head.units;
  let asciiUnits = 0;
  let bodyUnits = 0;
  for (const [key, body] of bulk) {
    lines += 1 + countLines(body, maxLines);
    if (lines > maxLines) return false;
    textUnits += body.length;
    bodyUnits += body.length;
    // Two line breaks, two spaces and the key around each header's two rules.
    asciiUnits += 4 + key.length;
  }
  // Every run the rule must avoid starts a body or follows a line break and five `=`.
  const ruleLength = 5 + bulk.length + Math.floor(bodyUnits / 6);
  asciiUnits += bulk.length * 2 * ruleLength;
  return textUnits * 3 + asciiUnits <= maxBytes;
}

// Lines and a UTF-16 length bound of `JSON.stringify(rest, null, 2)` when every field is a
// string, a finite or non-finite number, a boolean or null (JSON cannot refuse those); else
// `undefined`.
function flatHeadBound(
  rest: Record<string, unknown>,
): { lines: number; units: number } | undefined {
  let fields = 0;
  let units = 3;
  for (const key of Object.keys(rest)) {
    const field = rest[key];
    let valueUnits: number;
    if (typeof field === 'string') valueUnits = field.length * 6 + 2;
    else if (typeof field === 'number') valueUnits = 24;
    else if (typeof field === 'boolean' || field === null) valueUnits = 5;
    else return undefined;
    fields += 1;
    // Newline, two spaces of indent, the quoted (at worst escaped) key, `: `, the value, `,`.
    units += 3 + key.length * 6 + 2 + 2 + valueUnits + 1;
  }
  return { lines: fields === 0 ? 1 : fields + 2, units };
}

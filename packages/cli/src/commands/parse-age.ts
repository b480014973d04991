const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * An age as `journal gc --older-than` takes it: a whole number of minutes, hours or days (`90m`,
 * `12h`, `30d`), in milliseconds; `undefined` for anything else (no bare numbers: a unit-less
 * `30` could mean seconds to one reader and days to another).
 */
export function parseAge(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,8})([mhd])$/.exec(text);
  if (match === null) return undefined;
  const [, amount = '', unit = ''] = match;
  const ms = Number(amount) * (UNIT_MS[unit] ?? Number.NaN);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

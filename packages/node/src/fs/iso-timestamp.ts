const DAY_MS = 86_400_000;
// 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: the four-digit years.
const FIRST_MS = -62_167_219_200_000;
const END_MS = 253_402_300_800_000;

// The last whole second formatted (`…T12:34:56.`): a listing's files were mostly written in a
// few seconds, so most entries only format their milliseconds.
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `stats.mtime.toISOString()` from `stats.mtimeMs`, without building a `Date` (Node rounds the
 * milliseconds the same way): a listing formats a thousand of these. Years outside 0000–9999
 * (and NaN, which throws) take `Date`'s own path.
 */
export function isoTimestamp(timeMs: number): string {
  const ms = Math.round(timeMs);
  if (!(ms >= FIRST_MS && ms < END_MS)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = secondPrefix(second * 1000);
    cachedSecond = second;
  }
  return `${cachedPrefix}${three(ms - second * 1000)}Z`;
}

// `YYYY-MM-DDTHH:MM:SS.` of a whole second inside the four-digit years.
function secondPrefix(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  // Howard Hinnant's civil_from_days: the proleptic Gregorian date of a day count.
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const year4 = year < 1000 ? String(year).padStart(4, '0') : String(year);
  return `${year4}-${two(month)}-${two(day)}T${two(Math.floor(inDay / 3_600_000))}:${two(
    Math.floor(inDay / 60_000) % 60,
  )}:${two(Math.floor(inDay / 1000) % 60)}.`;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function three(value: number): string {
  return value < 10 ? `00${value}` : value < 100 ? `0${value}` : String(value);
}

/** The longest opted-in content attribute (arguments, result), in UTF-16 units. */
export const MAX_CONTENT_ATTRIBUTE_LENGTH = 4096;

/** At most `max` UTF-16 units, never ending on half of a surrogate pair. */
export function clipAttribute(text: string, max: number = MAX_CONTENT_ATTRIBUTE_LENGTH): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

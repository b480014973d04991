/** Lines in `text` (newlines + 1), counting no further than `stopAfter` + 1. */
export function countLines(text: string, stopAfter: number): number {
  let lines = 1;
  let index = text.indexOf('\n');
  while (index !== -1 && lines <= stopAfter) {
    lines++;
    index = text.indexOf('\n', index + 1);
  }
  return lines;
}

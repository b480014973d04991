import { CliUsageError } from '../cli-error.js';

/**
 * `JSON.parse` whose error names the line and column instead of echoing source text: V8's
 * message quotes the input, which could carry a value the user never meant to print.
 */
export function parseJsonWithPosition(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const { line, column } = locateJsonError(text, error instanceof Error ? error.message : '');
    throw new CliUsageError(`${label}: invalid JSON at line ${line}, column ${column}`);
  }
}

/** Line and column (1-based) of a `JSON.parse` failure; the end of input when V8 gives none. */
export function locateJsonError(text: string, message: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn !== null) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  const offset = position === null ? text.length : Math.min(Number(position[1]), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

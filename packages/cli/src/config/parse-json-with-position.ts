import { CliUsageError } from '../cli-error.js';

/**
 * `JSON.parse` whose error names the line and column instead of echoing source text: V8's
 * message quotes the input, which could carry a value the user never meant to print.
 */
export function parseJsonWithPosition(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { line, column } = locateJsonError(text);
    throw new CliUsageError(`${label}: invalid JSON at line ${line}, column ${column}`);
  }
}

/**
 * Line and column (1-based) of the first JSON syntax error. V8 reports an offset for some
 * errors and none for others (an unexpected token), so we find it ourselves, on failure only.
 */
export function locateJsonError(text: string): { line: number; column: number } {
  const offset = Math.min(findJsonErrorOffset(text), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}

class JsonSyntaxAt extends Error {
  constructor(readonly offset: number) {
    super('json syntax');
  }
}

// A minimal recursive-descent JSON checker: it only has to find WHERE parsing first fails.
function findJsonErrorOffset(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw new JsonSyntaxAt(at);
  };
  const skipSpace = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at] ?? '')) at += 1;
  };
  const expect = (char: string): void => {
    if (text[at] !== char) fail();
    at += 1;
  };
  const literal = (word: string): void => {
    for (const char of word) expect(char);
  };
  const string = (): void => {
    expect('"');
    while (at < text.length && text[at] !== '"') {
      const char = text[at] ?? '';
      if (char < ' ') fail();
      if (char === '\\') {
        at += 1;
        const escape = text[at] ?? '';
        if (escape === 'u') {
          for (let index = 0; index < 4; index += 1) {
            at += 1;
            if (!/[0-9a-fA-F]/.test(text[at] ?? '')) fail();
          }
        } else if (!'"\\/bfnrt'.includes(escape) || escape === '') {
          fail();
        }
      }
      at += 1;
    }
    expect('"');
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null || match[0] === '' || match[0] === '-') fail();
    at += match?.[0].length ?? 0;
  };
  const value = (): void => {
    skipSpace();
    const char = text[at];
    if (char === '{') {
      at += 1;
      skipSpace();
      if (text[at] === '}') {
        at += 1;
        return;
      }
      for (;;) {
        skipSpace();
        string();
        skipSpace();
        expect(':');
        value();
        skipSpace();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        expect('}');
        return;
      }
    }
    if (char === '[') {
      at += 1;
      skipSpace();
      if (text[at] === ']') {
        at += 1;
        return;
      }
      for (;;) {
        value();
        skipSpace();
        if (text[at] === ',') {
          at += 1;
          continue;
        }
        expect(']');
        return;
      }
    }
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    number();
  };
  try {
    value();
    skipSpace();
    if (at < text.length) fail();
    return text.length;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return error.offset;
    throw error;
  }
}

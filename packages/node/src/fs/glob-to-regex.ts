/**
 * A model-chosen glob as a regular expression source for a linear-time engine (RE2): segment
 * aware (`*`, `?` and classes never cross `/`; `**` as a whole segment spans any number of
 * them), `{a,b}` braces expanded (nested, numeric `{1..3}` ranges), positive extglobs
 * (`@()`, `?()`, `*()`, `+()`), `\` escapes. Every name is matched with `dot: true`. No
 * lookaround is ever emitted; a negated extglob `!(…)` would need one and is refused.
 */
export interface GlobRegex {
  /** Anchored source: `^(?:…)$`. */
  readonly source: string;
  /** Unbounded repetitions in it: with at most one, a backtracking engine stays linear too. */
  readonly repetitions: number;
  /** It uses a POSIX class (`[[:alpha:]]`), which only RE2 reads. */
  readonly posix?: boolean;
}

/** A glob this matcher will not take (a negated extglob, too many brace alternatives). */
export class GlobSyntaxError extends Error {
  override readonly name = 'GlobSyntaxError';
}

/** Alternatives one glob's braces may expand to: `{a,b}{c,d}…` grows as a product. */
export const MAX_BRACE_ALTERNATIVES = 256;

/** `basename`: a glob without `/` matches the last segment at any depth (`*.ts`). */
export function globToRegex(
  glob: string,
  options: { readonly basename?: boolean } = {},
): GlobRegex {
  const alternatives = expandBraces(glob.startsWith('./') ? glob.slice(2) : glob);
  let repetitions = 0;
  let posix = false;
  const sources = alternatives.map((alternative) => {
    const translated = translate(alternative);
    repetitions += translated.repetitions;
    posix ||= translated.posix === true;
    return options.basename === true && !alternative.includes('/')
      ? `(?:.*/)?${translated.source}`
      : translated.source;
  });
  if (options.basename === true) repetitions += 1;
  return { source: `^(?:${sources.join('|')})$`, repetitions, posix };
}

function translate(glob: string): GlobRegex {
  const segments = splitSegments(glob);
  let source = '';
  let repetitions = 0;
  let posix = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    const afterGlobstar =
      index > 0 && segments[index - 1] === '**' && index - 1 < segments.length - 1;
    if (segment === '**') {
      repetitions += 1;
      if (last) source += index === 0 ? '.*' : '(?:/.*)?';
      else source += `${index === 0 || afterGlobstar ? '' : '/'}(?:[^/]*/)*`;
      return;
    }
    if (index > 0 && !afterGlobstar) source += '/';
    const translated = translateSegment(segment);
    source += translated.source;
    repetitions += translated.repetitions;
    posix ||= translated.posix === true;
  });
  return { source, repetitions, posix };
}

// Splits on `/` outside escapes and classes.
function splitSegments(glob: string): string[] {
  const segments: string[] = [];
  let current = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? '';
    if (char === '\\' && index + 1 < glob.length) {
      current += char + (glob[index + 1] ?? '');
      index += 1;
    } else if (char === '/') {
      segments.push(current);
      current = '';
    } else current += char;
  }
  segments.push(current);
  return segments;
}

const EXTGLOB = new Map([
  ['@', ''],
  ['?', '?'],
  ['*', '*'],
  ['+', '+'],
]);

function translateSegment(segment: string): GlobRegex {
  let source = '';
  let repetitions = 0;
  let posix = false;
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] ?? '';
    const next = segment[index + 1];
    if (char === '\\') {
      source += escapeChar(next ?? '\\');
      index += 1;
      continue;
    }
    if (next === '(' && (EXTGLOB.has(char) || char === '!')) {
      const close = closingParen(segment, index + 1);
      if (close !== undefined) {
        if (char === '!') throw new GlobSyntaxError('a negated extglob !(…) is not supported');
        const inner = splitTopLevel(segment.slice(index + 2, close), '|').map(translateSegment);
        const quantifier = EXTGLOB.get(char) ?? '';
        repetitions += inner.reduce((total, part) => total + part.repetitions, 0);
        posix ||= inner.some((part) => part.posix === true);
        if (quantifier === '*' || quantifier === '+') repetitions += 1;
        source += `(?:${inner.map((part) => part.source).join('|')})${quantifier}`;
        index = close;
        continue;
      }
    }
    if (char === '*') {
      // `**` inside a segment is a plain `*`.
      while (segment[index + 1] === '*') index += 1;
      source += '[^/]*';
      repetitions += 1;
      continue;
    }
    if (char === '?') {
      source += '[^/]';
      continue;
    }
    if (char === '[') {
      const parsed = characterClass(segment, index);
      if (parsed !== undefined) {
        source += parsed.source;
        posix ||= parsed.posix;
        index = parsed.end;
        continue;
      }
    }
    source += escapeChar(char);
  }
  return { source, repetitions, posix };
}

// `[abc]`, `[!a-z]`, `[^…]`, `[[:alpha:]]`: copied as an RE2 class that never matches `/`.
function characterClass(
  segment: string,
  open: number,
): { source: string; end: number; posix: boolean } | undefined {
  let index = open + 1;
  let negated = false;
  let posix = false;
  if (segment[index] === '!' || segment[index] === '^') {
    negated = true;
    index += 1;
  }
  let body = '';
  // A `]` first in the class is a member, as in POSIX.
  if (segment[index] === ']') {
    body += '\\]';
    index += 1;
  }
  for (; index < segment.length; index += 1) {
    const char = segment[index] ?? '';
    if (char === ']') {
      return { source: negated ? `[^/${body}]` : `[${body}]`, end: index, posix };
    }
    if (char === '[' && segment[index + 1] === ':') {
      const close = segment.indexOf(':]', index + 2);
      const name = close === -1 ? '' : segment.slice(index + 2, close);
      if (POSIX_CLASSES.has(name)) {
        body += `[:${name}:]`;
        posix = true;
        index = close + 1;
        continue;
      }
    }
    if (char === '\\' && index + 1 < segment.length) {
      const escaped = segment[index + 1] ?? '';
      body += escaped === '-' ? '\\-' : escapeChar(escaped);
      index += 1;
      continue;
    }
    body += char === '-' ? '-' : escapeChar(char);
  }
  return undefined;
}

const POSIX_CLASSES = new Set([
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
]);

// Valid in both engines, outside a class and in one (`-` is left to the class parser).
function escapeChar(char: string): string {
  return /[\\^$.*+?()[\]{}|/]/u.test(char) ? `\\${char}` : char;
}

function closingParen(text: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

// Splits on `separator` outside parentheses, braces, classes and escapes.
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (char === '\\' && index + 1 < text.length) {
      current += char + (text[index + 1] ?? '');
      index += 1;
      continue;
    }
    if (char === '(' || char === '{' || char === '[') depth += 1;
    else if ((char === ')' || char === '}' || char === ']') && depth > 0) depth -= 1;
    if (char === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** Brace expansion, bounded: `a{b,c{d,e}}` → `ab`, `acd`, `ace`; `{1..3}` → 1, 2, 3. */
export function expandBraces(glob: string): string[] {
  const found = firstBrace(glob);
  if (found === undefined) return [glob];
  const { open, close, members } = found;
  const head = glob.slice(0, open);
  const tails = expandBraces(glob.slice(close + 1));
  const expanded: string[] = [];
  for (const member of members) {
    for (const middle of expandBraces(member)) {
      for (const tail of tails) {
        expanded.push(head + middle + tail);
        if (expanded.length > MAX_BRACE_ALTERNATIVES) {
          throw new GlobSyntaxError(
            `the braces expand to more than ${MAX_BRACE_ALTERNATIVES} alternatives`,
          );
        }
      }
    }
  }
  return expanded;
}

// The first `{…}` with a top-level comma or a range; a brace without one is literal.
function firstBrace(
  glob: string,
): { open: number; close: number; members: readonly string[] } | undefined {
  for (let open = 0; open < glob.length; open += 1) {
    const char = glob[open];
    if (char === '\\') {
      open += 1;
      continue;
    }
    if (char !== '{') continue;
    const close = closingBrace(glob, open);
    if (close === undefined) return undefined;
    const body = glob.slice(open + 1, close);
    const members = splitTopLevel(body, ',');
    if (members.length > 1) return { open, close, members };
    const range = expandRange(body);
    if (range !== undefined) return { open, close, members: range };
  }
  return undefined;
}

function closingBrace(text: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return undefined;
}

function expandRange(body: string): string[] | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)$/u.exec(body);
  if (numeric !== null) {
    const from = Number(numeric[1]);
    const to = Number(numeric[2]);
    if (Math.abs(to - from) >= MAX_BRACE_ALTERNATIVES) {
      throw new GlobSyntaxError(
        `the braces expand to more than ${MAX_BRACE_ALTERNATIVES} alternatives`,
      );
    }
    const step = from <= to ? 1 : -1;
    const values: string[] = [];
    for (let value = from; value !== to + step; value += step) values.push(String(value));
    return values;
  }
  const letters = /^([a-zA-Z])\.\.([a-zA-Z])$/u.exec(body);
  if (letters === null) return undefined;
  const from = (letters[1] ?? 'a').charCodeAt(0);
  const to = (letters[2] ?? 'a').charCodeAt(0);
  const step = from <= to ? 1 : -1;
  const values: string[] = [];
  for (let code = from; code !== to + step; code += step) values.push(String.fromCharCode(code));
  return values;
}

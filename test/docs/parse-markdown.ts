/** A fenced code block: its info string, its body and the 1-based line of its opening fence. */
export interface FencedBlock {
  readonly info: string;
  readonly body: string;
  readonly line: number;
}

/** A line of prose (outside any fenced block) with its 1-based line number. */
export interface ProseLine {
  readonly text: string;
  readonly line: number;
}

/** A markdown page split into prose lines and fenced blocks. */
export interface ParsedMarkdown {
  readonly prose: readonly ProseLine[];
  readonly blocks: readonly FencedBlock[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** Splits a page into prose and fenced blocks, following CommonMark's fence rules. */
export function parseMarkdown(source: string): ParsedMarkdown {
  const prose: ProseLine[] = [];
  const blocks: FencedBlock[] = [];
  const lines = source.split(/\r?\n/);
  let open: { fence: string; info: string; line: number; body: string[] } | undefined;
  lines.forEach((text, index) => {
    const line = index + 1;
    const match = FENCE.exec(text);
    if (open === undefined) {
      // A backtick fence's info string may not hold a backtick: "```x```" is an inline code span.
      if (match !== null && !(match[2]!.startsWith('`') && match[3]!.includes('`'))) {
        open = { fence: match[2]!, info: match[3]!.trim(), line, body: [] };
      } else {
        prose.push({ text, line });
      }
      return;
    }
    // A closing fence is the same character, at least as long, with nothing after it: so a
    // ```` fence can show a ``` block (as docs/CONVENTIONS.md does) without it being run.
    const closes =
      match !== null &&
      match[2]!.startsWith(open.fence[0]!) &&
      match[2]!.length >= open.fence.length &&
      match[3]!.trim() === '';
    if (closes) {
      blocks.push({ info: open.info, body: open.body.join('\n'), line: open.line });
      open = undefined;
    } else {
      open.body.push(text);
    }
  });
  // An unclosed fence runs to the end of the page, as GitHub renders it.
  if (open !== undefined)
    blocks.push({ info: open.info, body: open.body.join('\n'), line: open.line });
  return { prose, blocks };
}

/** Blanks inline code spans so a link or heading shown as code is not read as one. */
export function stripCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
}

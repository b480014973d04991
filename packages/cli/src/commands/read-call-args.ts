import { readFile } from 'node:fs/promises';
import { CliUsageError } from '../cli-error.js';
import { parseJsonWithPosition } from '../config/parse-json-with-position.js';

/**
 * The JSON arguments of `call`/`explain`: inline text, `@file.json`, or `-` for stdin; absent
 * means `{}`. Only a syntax error is caught here; the tool's schema judges the shape.
 */
export async function readCallArgs(
  source: string | undefined,
  stdin: NodeJS.ReadableStream,
): Promise<unknown> {
  if (source === undefined) return {};
  if (source === '-') return parseJsonWithPosition(await readAll(stdin), 'arguments (stdin)');
  if (source.startsWith('@')) {
    let text: string;
    try {
      text = await readFile(source.slice(1), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new CliUsageError(`arguments: cannot read the arguments file (${code})`);
    }
    return parseJsonWithPosition(text, 'arguments file');
  }
  return parseJsonWithPosition(source, 'arguments');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

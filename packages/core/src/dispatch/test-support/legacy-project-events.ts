import {
  backstopInlineMedia,
  isBinary,
  isInlineBase64Object,
  scrubInlineMedia,
} from '../../bound/backstop-inline-media.js';
import { redactKey, redactLeaf, redactStructured } from '../../redact/redact-structured.js';
import { redactText } from '../../redact/redact-text.js';

// The event projections without what made them cheaper (eager JSON of the whole redacted
// result, `\s+` collapse, both passes always), with today's redaction (keys and leaves before
// JSON, escapes read decoded): the equivalence test holds today's to these bytes.

const MAX_LEAF = 1000;
const MAX_SUMMARY = 500;
const SUMMARY_WINDOW = 8192;
const READ_WINDOW = SUMMARY_WINDOW + 4096;
const MAX_DEPTH = 32;
const INLINE_BASE64_OBJECT = '[inline base64 media]';

/** The reference `projectToolInput`. */
export function legacyProjectToolInput(args: unknown, hiddenKeys: ReadonlySet<string>): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return projectValue(args, undefined, [], 0);
  }
  const ancestors: object[] = [args];
  const projected: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    if (hiddenKeys.has(key)) continue;
    const shown = redactKey(key);
    defineOwn(
      projected,
      shown,
      projectValue((args as Record<string, unknown>)[key], shown, ancestors, 1),
    );
  }
  return projected;
}

/** The reference `summarizeOutput`. */
export function legacySummarizeOutput(modelResult: unknown): string {
  const text =
    typeof modelResult === 'string'
      ? modelResult
      : (safeJson(backstopInlineMedia(modelResult)) ?? '');
  const window = clip(redactText(scrubInlineMedia(clip(text, READ_WINDOW))), SUMMARY_WINDOW);
  const oneLine = redactText(window.replace(/\s+/g, ' ').trim());
  return clip(oneLine, MAX_SUMMARY);
}

function projectValue(
  value: unknown,
  shownKey: string | undefined,
  ancestors: object[],
  depth: number,
): unknown {
  switch (typeof value) {
    case 'string':
      return clip(redactLeaf(scrubInlineMedia(clip(value, SUMMARY_WINDOW)), shownKey), MAX_LEAF);
    case 'bigint':
      return `${value}`;
    case 'function':
      return '[function]';
    case 'symbol':
      return '[symbol]';
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (ancestors.includes(value)) return '[cyclic]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (isBinary(value)) return `[binary ${value.byteLength} bytes]`;
  if (isInlineBase64Object(value)) return INLINE_BASE64_OBJECT;
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item) => projectValue(item, undefined, ancestors, depth + 1));
    }
    const projected: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const shown = redactKey(key);
      defineOwn(
        projected,
        shown,
        projectValue((value as Record<string, unknown>)[key], shown, ancestors, depth + 1),
      );
    }
    return projected;
  } finally {
    ancestors.pop();
  }
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

function safeJson(value: unknown): string | undefined {
  try {
    // Each leaf is read no further than the window (and a little): that is the summary's
    // definition now, since redaction runs before the JSON is cut.
    return JSON.stringify(
      redactStructured(value, {
        leaf: (text) => (text.length > READ_WINDOW + 2 ? text.slice(0, READ_WINDOW + 2) : text),
      }),
    );
  } catch {
    return undefined;
  }
}

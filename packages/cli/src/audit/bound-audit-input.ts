import { MAX_PREVIEW_CONTENT_BYTES, previewContent } from '@toolhost/core/dispatch';
import { redactText } from '@toolhost/core/redact';

/**
 * A call's arguments as the audit log keeps them: every string leaf over
 * `MAX_PREVIEW_CONTENT_BYTES` becomes its redacted start and a `[cut: N bytes]` note — the same
 * bounded form an approver is shown. The log outlives every decision and the redactor is
 * best-effort, so a write's whole text (up to 8 MiB a line) is not kept there.
 */
export function boundAuditInput(value: unknown): unknown {
  if (typeof value === 'string') return boundString(value);
  if (Array.isArray(value)) return value.map(boundAuditInput);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, boundAuditInput(entry)]),
  );
}

function boundString(text: string): string {
  // Under the cap by characters is under it by bytes too only for ASCII: measure when close.
  if (text.length * 3 <= MAX_PREVIEW_CONTENT_BYTES) return text;
  const preview = previewContent(text, redactText);
  return preview.contentTruncated ? `${preview.content}…[cut: ${preview.byteCount} bytes]` : text;
}

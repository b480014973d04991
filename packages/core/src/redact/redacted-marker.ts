/** What a recognised secret span is replaced with. */
export const REDACTED = '[redacted]';

import path from 'node:path';

// Only what a model or a media part needs to tell apart; anything else is generic.
const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/typescript',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** The MIME type of a file by its extension, given what the binary sniff said. */
export function mimeTypeOf(file: string, binary: boolean): string {
  const known = BY_EXTENSION[path.extname(file).toLowerCase()];
  if (known !== undefined) {
    const textual =
      known.startsWith('text/') ||
      known === 'application/json' ||
      known.endsWith('xml') ||
      known.endsWith('yaml');
    // A name says what a file claims to be; the sniff says what it is.
    if (textual !== binary || known === 'image/svg+xml') return known;
  }
  return binary ? 'application/octet-stream' : 'text/plain';
}

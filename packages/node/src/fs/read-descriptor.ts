import { read } from 'node:fs';

/** A positional read: a FileHandle is one, and so is `descriptorReader(fd)`. */
export interface PositionalReader {
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
}

/**
 * Positional reads of a bare descriptor (the jail's `openFileForRead`): one thread-pool hop a
 * read, as through a FileHandle, without the FileHandle's own open and close hops.
 */
export function descriptorReader(fd: number): PositionalReader {
  return {
    read: (buffer, offset, length, position) =>
      new Promise((resolve, reject) => {
        read(fd, buffer, offset, length, position, (error, bytesRead) => {
          if (error === null) resolve({ bytesRead });
          else reject(error);
        });
      }),
  };
}

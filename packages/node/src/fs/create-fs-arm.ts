import type { FsCapability } from '@toolhost/core';
import type { NodeMediaStore } from '../media-store/create-media-store.js';
import type { Jail } from './jail.js';
import { createListDirectory } from './list-directory.js';
import { createReadFile } from './read-file.js';
import { createWriteFile } from './write-file.js';

/** The jailed fs arm; a read-only host gets no `writeFile` at all. */
export function createFsArm(jail: Jail, media: NodeMediaStore, readOnly: boolean): FsCapability {
  const readFile = createReadFile(jail, media);
  const listDirectory = createListDirectory(jail);
  return readOnly
    ? { readFile, listDirectory }
    : { readFile, listDirectory, writeFile: createWriteFile(jail) };
}

import type { FsCapability } from '@toolhost/core/host';
import type { NodeMediaStore } from '../media-store/create-media-store.js';
import type { Jail } from './jail.js';
import { createEditFile } from './edit-file.js';
import { createListDirectory } from './list-directory.js';
import { createMakeDirectory } from './make-directory.js';
import { createMoveFile } from './move-file.js';
import { createReadFile } from './read-file.js';
import { createSearchFiles } from './search-files.js';
import { createWriteFile } from './write-file.js';

/** The jailed fs arm; a read-only host gets none of the writing methods at all. */
export function createFsArm(jail: Jail, media: NodeMediaStore, readOnly: boolean): FsCapability {
  const readFile = createReadFile(jail, media);
  const listDirectory = createListDirectory(jail);
  const searchFiles = createSearchFiles(jail);
  return readOnly
    ? { readFile, listDirectory, searchFiles }
    : {
        readFile,
        listDirectory,
        searchFiles,
        writeFile: createWriteFile(jail),
        editFile: createEditFile(jail),
        moveFile: createMoveFile(jail),
        makeDirectory: createMakeDirectory(jail),
      };
}

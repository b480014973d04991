import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';

/**
 * Creates `file` with mode 0600 and writes `text`; returns its remover. `O_EXCL` with
 * `O_NOFOLLOW` refuses an existing file and any symlink, so another local user cannot aim the
 * write at a file of theirs (and read the secret in it) or at one of ours (and clobber it).
 * Throws the raw `open` error (`EEXIST`, `ELOOP`…); callers word it for their flag or file.
 */
export async function createOwnerOnlyFile(
  file: string,
  text: string,
): Promise<() => Promise<void>> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(file, flags, 0o600);
  try {
    // The umask may only narrow the mode; chmod pins it so the file says exactly owner-only.
    await handle.chmod(0o600);
    await handle.writeFile(text, 'utf8');
  } finally {
    await handle.close();
  }
  const written = await lstat(file, { bigint: true });
  return async () => {
    // Only the file this start created: a file swapped in since is someone else's to keep. The
    // change time, as inode numbers are reused as soon as a file is unlinked.
    const now = await lstat(file, { bigint: true }).catch(() => undefined);
    if (now?.ino === written.ino && now.dev === written.dev && now.ctimeNs === written.ctimeNs) {
      await unlink(file);
    }
  };
}

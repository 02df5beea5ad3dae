import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Writes a file so that readers only ever see the old or the new content, never
 * a half-written one: write a temp file in the same folder, flush it to disk,
 * then rename it over the target (rename is atomic within a file system). The
 * temp file is named by process and thread, so that two threads writing one
 * file do not write into one temp file, and it is removed when the write or
 * the rename fails (a full disk, a folder where the file should be), so that
 * a failed write leaves nothing behind.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${threadId}.tmp`);
  const fd = openSync(temp, 'w');
  try {
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

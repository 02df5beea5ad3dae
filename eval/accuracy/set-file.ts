/**
 * An accuracy set's file as text: read within a size cap, and its lines as
 * the set means them, whatever line ends a checkout or an editor gave it.
 */

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { AccuracySetError } from './set-error.ts';

/** The most a set file may hold: the hold-out is 0.6 MiB, so sets 100 times its size still fit. */
export const MAX_SET_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

/**
 * The text of the set file at `path`, refused in one line (an
 * AccuracySetError naming the path) when it is missing, a folder, not a
 * regular file (a device such as /dev/zero never ends) or larger than
 * MAX_SET_BYTES, before anything is read.
 */
export function readSetFile(path: string): string {
  checkedSize(path, statOf(path));
  // Non-blocking: a pipe put there since the check must not hang the open (a regular file reads the same).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    // The file checked above may have been swapped or have grown since: its open copy is checked again.
    const size = checkedSize(path, fstatSync(fd));
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return bytes.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

function statOf(path: string): Stats {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new AccuracySetError(`accuracy set ${path} does not exist`);
    }
    throw err;
  }
}

function checkedSize(path: string, stats: Stats): number {
  if (stats.isDirectory()) {
    throw new AccuracySetError(
      `accuracy set ${path} is a folder, not an accuracy set file (.jsonl)`,
    );
  }
  if (!stats.isFile()) {
    throw new AccuracySetError(
      `accuracy set ${path} is not a regular file (a device, a pipe or a socket): give an accuracy set file (.jsonl)`,
    );
  }
  if (stats.size > MAX_SET_BYTES) {
    throw new AccuracySetError(
      `accuracy set ${path} is ${(stats.size / MIB).toFixed(1)} MiB, more than the ${MAX_SET_BYTES / MIB} MiB an accuracy set file may be`,
    );
  }
  return stats.size;
}

/**
 * The lines of a set file's text: a UTF-8 byte order mark dropped, CRLF line
 * ends read as LF (a Windows checkout or editor), and the newline at the end
 * optional. A set's checksums are over these lines, so a copy that differs
 * from the original only in those ways is the same set.
 */
export function setLines(text: string): string[] {
  const lines = (text.startsWith('\uFEFF') ? text.slice(1) : text).split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The sha256 of a set file's content, in hex: of its lines each ended by a
 * newline, so for a file with LF line ends (the shipped ones) it is the
 * sha256 of the file itself (`sha256sum`).
 */
export function setContentSha256(text: string): string {
  const hash = createHash('sha256');
  for (const line of setLines(text)) hash.update(line).update('\n');
  return hash.digest('hex');
}

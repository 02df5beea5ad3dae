/**
 * An accuracy set's file as text: read within a size cap, and its lines as
 * the set means them, whatever line ends a checkout or an editor gave it.
 */

import { createHash } from 'node:crypto';
import { BoundedReadError, readTextBounded } from '../../files/read-bounded.ts';
import { AccuracySetError } from './set-error.ts';

/** The most a set file may hold: the hold-out is 0.6 MiB, so sets 100 times its size still fit. */
export const MAX_SET_BYTES = 64 * 1024 * 1024;

/**
 * The text of the set file at `path`, refused in one line (an
 * AccuracySetError naming the path) when it is missing, a folder, not a
 * regular file (a device such as /dev/zero never ends) or larger than
 * MAX_SET_BYTES, before anything is read.
 */
export function readSetFile(path: string): string {
  try {
    return readTextBounded(path, {
      what: `accuracy set ${path}`,
      kind: 'an accuracy set file',
      maxBytes: MAX_SET_BYTES,
    });
  } catch (err) {
    throw err instanceof BoundedReadError ? new AccuracySetError(err.message) : err;
  }
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

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file a user or a job named cannot be read within its bounds. */
export class BoundedReadError extends Error {
  override name = 'BoundedReadError';
  constructor(
    readonly reason: 'missing' | 'not-a-file' | 'too-large' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

const MIB = 1024 * 1024;

/** What a file is read as, for its messages: `policy runs/x.json`, and what it must be. */
export interface BoundedFile {
  /** Names the file in errors: `policy runs/x.json`, `accuracy set s.jsonl`. */
  readonly what: string;
  /** What the file must be, with its article: `a policy file`, `an accuracy set file`. */
  readonly kind: string;
  readonly maxBytes: number;
}

function refuseStat(
  file: BoundedFile,
  stat: { isDirectory(): boolean; isFile(): boolean; size: number },
): void {
  if (stat.isDirectory())
    throw new BoundedReadError('not-a-file', `${file.what} is a folder, not ${file.kind}`);
  if (!stat.isFile()) {
    throw new BoundedReadError(
      'not-a-file',
      `${file.what} is not a regular file (a device, a pipe or a socket): give ${file.kind}`,
    );
  }
  if (stat.size > file.maxBytes) {
    throw new BoundedReadError(
      'too-large',
      `${file.what} is ${(stat.size / MIB).toFixed(1)} MiB, more than the ${file.maxBytes / MIB} MiB ${file.kind} may be`,
    );
  }
}

/** A user's or a job's text file, read as readBytesBounded reads it, as UTF-8. */
export function readTextBounded(path: string, file: BoundedFile): string {
  return readBytesBounded(path, file).toString('utf8');
}

/**
 * Reads a regular file of at most `file.maxBytes` bytes. A folder, a device
 * (`/dev/zero` would be read until memory runs out), a FIFO or a file over the
 * cap is refused in one line naming it, before anything is read; a file that
 * grows while it is read stops at the cap.
 */
export function readBytesBounded(path: string, file: BoundedFile): Buffer {
  let fd: number;
  try {
    // Non-blocking: a pipe put at the path must not hang the open (a regular file reads the same).
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BoundedReadError('missing', `${file.what} does not exist`);
    throw new BoundedReadError('unreadable', `cannot read ${file.what}: ${(err as Error).message}`);
  }
  try {
    refuseStat(file, fstatSync(fd));
    // Read to the end rather than stat.size bytes: a file may grow while it is read.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(MIB, file.maxBytes + 1 - length));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > file.maxBytes) {
        throw new BoundedReadError(
          'too-large',
          `${file.what} grew past the ${file.maxBytes / MIB} MiB ${file.kind} may be while it was read`,
        );
      }
    }
    return Buffer.concat(chunks, length);
  } finally {
    closeSync(fd);
  }
}

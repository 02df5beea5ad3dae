import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

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

/** `64 MiB`, `512 KiB`, `300 bytes`. */
export function byteSize(bytes: number): string {
  if (bytes >= 1 << 30 && bytes % (1 << 30) === 0) return `${bytes / (1 << 30)} GiB`;
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}

/**
 * Reads a regular file of at most `maxBytes` bytes as UTF-8 text; `what`
 * names it in errors (`policy runs/x/policy.json`). A folder, a device
 * (`/dev/zero` would be read until memory runs out), a FIFO or a file over
 * the cap is refused before anything is read, and a file that grows while it
 * is read stops at the cap.
 */
export function readTextBounded(path: string, maxBytes: number, what: string): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BoundedReadError('missing', `${what} does not exist`);
    if (code === 'EISDIR')
      throw new BoundedReadError('not-a-file', `${what} is a folder, not a file`);
    throw new BoundedReadError('unreadable', `cannot read ${what}: ${(err as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory())
      throw new BoundedReadError('not-a-file', `${what} is a folder, not a file`);
    if (!stat.isFile()) {
      throw new BoundedReadError(
        'not-a-file',
        `${what} is not a regular file (a device, a pipe or a socket)`,
      );
    }
    if (stat.size > maxBytes) {
      throw new BoundedReadError(
        'too-large',
        `${what} is ${stat.size} bytes, more than the ${byteSize(maxBytes)} such a file may have`,
      );
    }
    // Read to the end rather than stat.size bytes: a file may grow while it is read.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - length));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > maxBytes) {
        throw new BoundedReadError(
          'too-large',
          `${what} grew past the ${byteSize(maxBytes)} such a file may have while it was read`,
        );
      }
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

import { createHash } from 'node:crypto';

/** The sha256 of a text, in hex: the checksum of checkpoints and policy files. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

import { endianness } from 'node:os';
import { z } from 'zod';
import { describeIssues } from '../../env/zod-issues.ts';

/**
 * A shard's typed arrays as they travel through the queue: base64 of their
 * bytes (exact: a float32 comes back bit for bit). The bytes are
 * little-endian, the order of every machine Node runs on today; a big-endian
 * one refuses. Data decoded here came from another machine: every size is
 * checked, and a float that is not finite is refused (it would spread
 * through training).
 */

/** Shard data that does not fit its setup or is damaged (the queue refuses the job or the result). */
export class ShardDataError extends Error {
  override name = 'ShardDataError';
}

/**
 * Largest typed array of a shard's job or result, as base64 (a shard of 8192
 * games at 200 plies logs about 40 MB; the default run's shard, 256 games, 1.3).
 */
export const MAX_SHARD_ARRAY_CHARS = 64 * 1024 * 1024;

/** A typed array's bytes as base64. */
export const base64Schema = z
  .string()
  .max(MAX_SHARD_ARRAY_CHARS)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

function checkEndianness(): void {
  if (endianness() !== 'LE') {
    throw new ShardDataError(
      'self-play shards travel as little-endian bytes: this machine is big-endian',
    );
  }
}

type Typed = Uint8Array | Int8Array | Int32Array | Float32Array;

export function base64Of(array: Typed): string {
  checkEndianness();
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
}

function bytesOf(text: string, bytes: number, what: string): Buffer {
  checkEndianness();
  const buffer = Buffer.from(text, 'base64');
  if (buffer.length !== bytes) {
    throw new ShardDataError(`${what}: expected ${bytes} bytes, got ${buffer.length}`);
  }
  return buffer;
}

export function uint8From(text: string, count: number, what: string): Uint8Array {
  return new Uint8Array(bytesOf(text, count, what));
}

export function int8From(text: string, count: number, what: string): Int8Array {
  return new Int8Array(uint8From(text, count, what).buffer);
}

/** Float32 values from base64; a NaN or infinite one is refused. */
export function float32From(text: string, count: number, what: string): Float32Array {
  const buffer = bytesOf(text, count * 4, what);
  // A copy: a Buffer's bytes may sit at an offset that is not a multiple of 4.
  const out = new Float32Array(count);
  new Uint8Array(out.buffer).set(buffer);
  for (let i = 0; i < count; i++) {
    if (!Number.isFinite(out[i])) throw new ShardDataError(`${what}: value ${i} is ${out[i]}`);
  }
  return out;
}

/** `data` parsed by `schema`, or a ShardDataError naming `where` and every problem. */
export function parseShardData<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: string,
): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw new ShardDataError(`${where}: ${describeIssues(parsed.error, '(root)', 5)}`);
}

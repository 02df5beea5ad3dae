import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues } from '../env/zod-issues.ts';
import { decodeFloats, encodeFloats } from './base64-floats.ts';
import { CheckpointError } from './errors.ts';
import { sha256Hex } from './sha256.ts';

/**
 * The envelope of a training checkpoint (`ayoayo-checkpoint`): kind, version,
 * a checksum of the payload and the payload itself, plus the tensor encoding it
 * uses. It lives in models/ because policies can be loaded from checkpoints;
 * the trainer (train/run/checkpoint.ts) adds the full payload schema on top.
 */
export const CHECKPOINT_KIND = 'ayoayo-checkpoint';
export const CHECKPOINT_VERSION = 1;

export const tensorSchema = z
  .object({ name: z.string(), shape: z.array(z.number().int().nonnegative()), data: z.string() })
  .strict();
export type SavedTensor = z.infer<typeof tensorSchema>;

const fileSchema = z
  .object({
    kind: z.literal(CHECKPOINT_KIND),
    version: z.literal(CHECKPOINT_VERSION),
    /** sha256 of the JSON text of `payload`, to catch truncated or edited files. */
    checksum: z.string(),
    payload: z.unknown(),
  })
  .strict();

export { CheckpointError };

export function saveTensor(
  name: string,
  shape: readonly number[],
  data: Float32Array,
): SavedTensor {
  return { name, shape: [...shape], data: encodeFloats(data) };
}

/** Decodes a saved tensor; non-finite values are an error naming `where` and the tensor. */
export function loadTensorData(saved: SavedTensor, where = 'checkpoint'): Float32Array {
  const size = saved.shape.reduce((a, b) => a * b, 1);
  try {
    return decodeFloats(saved.data, size, `tensor ${saved.name}`);
  } catch (error) {
    throw new CheckpointError(`${where} is corrupt: ${(error as Error).message}`);
  }
}

/** The file text of a checkpoint holding `payload`. */
export function encodeCheckpoint(payload: unknown): string {
  const text = JSON.stringify(payload);
  const checksum = sha256Hex(text);
  return `{"kind":"${CHECKPOINT_KIND}","version":${CHECKPOINT_VERSION},"checksum":"${checksum}","payload":${text}}\n`;
}

/** Checks a parsed value's envelope (kind, version, checksum) and returns its unvalidated payload. */
export function checkpointPayloadOf(raw: unknown, path: string): unknown {
  const file = fileSchema.safeParse(raw);
  if (!file.success) {
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (kind !== CHECKPOINT_KIND) {
      throw new CheckpointError(
        `${path} is not an ayoayo checkpoint (kind ${JSON.stringify(kind)})`,
      );
    }
    throw new CheckpointError(
      `checkpoint ${path} is incompatible: ${describeIssues(file.error, '(root)')}`,
    );
  }
  const payloadText = JSON.stringify(file.data.payload);
  const checksum = sha256Hex(payloadText);
  if (checksum !== file.data.checksum) {
    throw new CheckpointError(`checkpoint ${path} is corrupt: checksum mismatch`);
  }
  return file.data.payload;
}

/** Reads a checkpoint file and verifies its envelope; returns the unvalidated payload. */
export function readCheckpointPayload(path: string): unknown {
  if (!existsSync(path)) throw new CheckpointError(`checkpoint ${path} does not exist`);
  const text = readFileSync(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CheckpointError(`checkpoint ${path} is corrupt: not valid JSON (truncated?)`);
  }
  return checkpointPayloadOf(raw, path);
}

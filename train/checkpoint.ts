import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../eval/atomic-write.ts';
import { decodeFloats, encodeFloats } from '../models/base64-floats.ts';
import { trainConfigSchema } from './config.ts';

export const CHECKPOINT_KIND = 'ayoayo-checkpoint';
export const CHECKPOINT_VERSION = 1;

const tensorSchema = z
  .object({ name: z.string(), shape: z.array(z.number().int().nonnegative()), data: z.string() })
  .strict();
export type SavedTensor = z.infer<typeof tensorSchema>;

const payloadSchema = z
  .object({
    config: trainConfigSchema,
    /** Iterations completed. */
    iteration: z.number().int().nonnegative(),
    counters: z
      .object({
        games: z.number().nonnegative(),
        plies: z.number().nonnegative(),
        samples: z.number().nonnegative(),
        elapsedSeconds: z.number().nonnegative(),
      })
      .strict(),
    /** The trainer's random generator at this iteration boundary. */
    rngState: z.array(z.number().int()).length(4),
    weights: z.array(tensorSchema),
    optimizer: z.array(tensorSchema),
    /** Opponent pool: snapshot policy files, relative to the run folder. */
    pool: z.array(z.object({ iteration: z.number().int(), path: z.string() }).strict()),
    metrics: z.array(z.record(z.string(), z.union([z.number(), z.string()]))),
    curve: z.array(
      z
        .object({
          minutes: z.number(),
          iteration: z.number(),
          opponent: z.string(),
          score: z.number(),
        })
        .strict(),
    ),
    best: z.object({ iteration: z.number().int(), score: z.number() }).strict().nullable(),
    lastEvaluation: z.record(z.string(), z.number()).nullable(),
  })
  .strict();
export type CheckpointPayload = z.infer<typeof payloadSchema>;

const fileSchema = z
  .object({
    kind: z.literal(CHECKPOINT_KIND),
    version: z.literal(CHECKPOINT_VERSION),
    /** sha256 of the JSON text of `payload`, to catch truncated or edited files. */
    checksum: z.string(),
    payload: z.unknown(),
  })
  .strict();

export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

export function saveTensor(
  name: string,
  shape: readonly number[],
  data: Float32Array,
): SavedTensor {
  return { name, shape: [...shape], data: encodeFloats(data) };
}

export function loadTensorData(saved: SavedTensor): Float32Array {
  const size = saved.shape.reduce((a, b) => a * b, 1);
  return decodeFloats(saved.data, size, `tensor ${saved.name}`);
}

/** Writes a checkpoint atomically (temp file + rename). */
export function writeCheckpoint(path: string, payload: CheckpointPayload): void {
  const text = JSON.stringify(payload);
  const checksum = createHash('sha256').update(text).digest('hex');
  writeFileAtomic(
    path,
    `{"kind":"${CHECKPOINT_KIND}","version":${CHECKPOINT_VERSION},"checksum":"${checksum}","payload":${text}}\n`,
  );
}

/** Reads and verifies a checkpoint; any problem is a CheckpointError naming the file and the fault. */
export function readCheckpoint(path: string): CheckpointPayload {
  if (!existsSync(path)) throw new CheckpointError(`checkpoint ${path} does not exist`);
  const text = readFileSync(path, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CheckpointError(`checkpoint ${path} is corrupt: not valid JSON (truncated?)`);
  }
  const file = fileSchema.safeParse(raw);
  if (!file.success) {
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (kind !== CHECKPOINT_KIND) {
      throw new CheckpointError(
        `${path} is not an ayoayo checkpoint (kind ${JSON.stringify(kind)})`,
      );
    }
    throw new CheckpointError(
      `checkpoint ${path} is incompatible: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const payloadText = JSON.stringify(file.data.payload);
  const checksum = createHash('sha256').update(payloadText).digest('hex');
  if (checksum !== file.data.checksum) {
    throw new CheckpointError(`checkpoint ${path} is corrupt: checksum mismatch`);
  }
  const payload = payloadSchema.safeParse(file.data.payload);
  if (!payload.success) {
    throw new CheckpointError(
      `checkpoint ${path} is incompatible: ${payload.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  }
  return payload.data;
}

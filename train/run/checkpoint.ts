import { z } from 'zod';
import { describeIssues } from '../../env/zod-issues.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import {
  CheckpointError,
  encodeCheckpoint,
  loadTensorData,
  readCheckpointPayload,
  tensorSchema,
} from '../../models/checkpoint-file.ts';
import { savedTrainConfigSchema } from '../config/validate.ts';

export {
  CHECKPOINT_KIND,
  CHECKPOINT_VERSION,
  CheckpointError,
  loadTensorData,
  type SavedTensor,
  saveTensor,
} from '../../models/checkpoint-file.ts';

const payloadSchema = z
  .object({
    config: savedTrainConfigSchema,
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
          games: z.number().int().positive().optional(),
        })
        .strict(),
    ),
    best: z.object({ iteration: z.number().int(), score: z.number() }).strict().nullable(),
    lastEvaluation: z.record(z.string(), z.number()).nullable(),
    /** The latest evaluation's accuracy against perfect play (runs of earlier versions: none). */
    lastAccuracy: z
      .object({ errors: z.number(), valueSign: z.number().nullable() })
      .strict()
      .nullable()
      .optional(),
    /** Expert iteration's replay window: positions, search policies and value targets. */
    replay: z
      .object({
        iterationRows: z.array(z.number().int().nonnegative()),
        states: tensorSchema,
        policies: tensorSchema,
        values: tensorSchema,
      })
      .strict()
      .nullable()
      // Checkpoints from before replay windows hold none.
      .default(null),
  })
  .strict();
export type CheckpointPayload = z.infer<typeof payloadSchema>;

/** Writes a checkpoint atomically (temp file + rename). */
export function writeCheckpoint(path: string, payload: CheckpointPayload): void {
  writeFileAtomic(path, encodeCheckpoint(payload));
}

function validatePayload(payload: unknown, path: string): CheckpointPayload {
  const parsed = payloadSchema.safeParse(payload);
  if (!parsed.success) {
    throw new CheckpointError(
      `checkpoint ${path} is incompatible: ${describeIssues(parsed.error, '(root)')}`,
    );
  }
  // Decoding rejects NaN and Infinity: a run must not resume from broken weights.
  const { replay } = parsed.data;
  const replayTensors = replay === null ? [] : [replay.states, replay.policies, replay.values];
  for (const t of [...parsed.data.weights, ...parsed.data.optimizer, ...replayTensors])
    loadTensorData(t, `checkpoint ${path}`);
  return parsed.data;
}

/** Reads and verifies a checkpoint; any problem is a CheckpointError naming the file and the fault. */
export function readCheckpoint(path: string): CheckpointPayload {
  return validatePayload(readCheckpointPayload(path), path);
}

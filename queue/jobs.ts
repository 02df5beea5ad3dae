import { z } from 'zod';
import { describeIssues } from '../env/gym/options.ts';
import { rulesSchema } from '../env/rules.ts';
import { folderNameSchema, trainConfigSchema } from '../train/config/schema.ts';
import { QueueError } from './errors.ts';

/** The one BullMQ queue every ayoayo job goes through. */
export const QUEUE_NAME = 'ayoayo';

/** Job names: what a worker does with a job's data. Never a command line. */
export const CHUNK_JOB = 'tournament-chunk';
export const TRAIN_JOB = 'train-run';

/** Tries per job (a kill -9 or a crash uses one); then the job is failed with its error. */
export const JOB_ATTEMPTS = 3;

const specSchema = z.string().min(1).max(10_000);
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

/**
 * One chunk of a tournament (eval/chunk.ts's Chunk) as data. Loose objects:
 * fields this schema does not name travel as they are, so that the chunk a
 * worker plays is the chunk eval made.
 */
export const chunkSchema = z.looseObject({
  labels: z.looseObject({ pairing: z.number().int().nonnegative(), a: specSchema, b: specSchema }),
  games: z
    .array(
      z.looseObject({
        game: z.number().int().nonnegative(),
        opening: z.number().int().nonnegative(),
        aSeat: z.union([z.literal(0), z.literal(1)]),
      }),
    )
    .min(1),
  settings: z.looseObject({
    seed: z.number().int(),
    openingPlies: z.number().int().nonnegative(),
    rules: rulesSchema,
    maxPlies: z.number().int().positive(),
  }),
  moveTimeoutMs: z.number().positive().optional(),
});

export const chunkJobSchema = z
  .object({
    /** The tournament's identity (a hash of all its chunks and policies). */
    tournament: z.string().regex(/^[0-9a-f]{16,64}$/),
    index: z.number().int().nonnegative(),
    chunk: chunkSchema,
    /** `policy:PATH` specs and the sha256 of the policy file the coordinator stored for them. */
    policies: z.record(specSchema, sha256Schema),
  })
  .strict();
export type ChunkJob = z.infer<typeof chunkJobSchema>;

/** A chunk's records as a worker returns them; checked against the chunk by the coordinator. */
export const chunkResultSchema = z.array(
  z.looseObject({
    pairing: z.number().int().nonnegative(),
    game: z.number().int().nonnegative(),
    a: z.string(),
    b: z.string(),
    winner: z.union([z.literal(0), z.literal(1), z.null()]),
  }),
);

/** Largest text file a training run sends back (metrics.csv of a long run is ~0.3 MB). */
export const MAX_RUN_FILE_BYTES = 32 * 1024 * 1024;
const fileText = z.string().max(MAX_RUN_FILE_BYTES);

export const trainJobSchema = z
  .object({
    sweep: folderNameSchema,
    /** The config the run trains with; the worker sets runsDir to a folder of its own. */
    config: trainConfigSchema,
  })
  .strict();
export type TrainJob = z.infer<typeof trainJobSchema>;

/** What a finished run sends back: its files, as text. */
export const trainResultSchema = z
  .object({
    config: fileText,
    metrics: fileText,
    finalEvaluation: fileText.nullable(),
    policy: fileText,
    learningCurve: fileText.nullable(),
    elapsedSeconds: z.number().nonnegative(),
  })
  .strict();
export type TrainResult = z.infer<typeof trainResultSchema>;

/** Parses data that came through the queue, or throws one line naming every problem. */
export function parseJobData<S extends z.ZodType>(
  schema: S,
  data: unknown,
  where: string,
): z.output<S> {
  const parsed = schema.safeParse(data);
  if (!parsed.success)
    throw new QueueError(`invalid ${where}: ${describeIssues(parsed.error, '(root)')}`);
  return parsed.data;
}

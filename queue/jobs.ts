import { z } from 'zod';
import { describeIssues } from '../env/gym/options.ts';
import { rulesSchema } from '../env/rules.ts';
import { trainConfigSchema } from '../train/config/validate.ts';
import { folderNameSchema } from '../train/settings/schema.ts';
import { QueueError } from './errors.ts';

/**
 * The BullMQ queue of one ayoayo version: every job of a coordinator goes
 * through the queue of its version, which only the workers of that version
 * serve, so that a stale worker never takes a job whose result its code
 * could change (and never fails one either: it does not see it).
 */
export const queueName = (version: string): string => `ayoayo-${version}`;
/** What every queue's name starts with (a worker census finds the workers of every version by it). */
export const QUEUE_NAME_PREFIX = 'ayoayo-';

/** Job names: what a worker does with a job's data. Never a command line. */
export const CHUNK_JOB = 'tournament-chunk';
export const TRAIN_JOB = 'train-run';
export const SHARD_JOB = 'self-play-shard';
export const ACCURACY_JOB = 'accuracy-chunk';
export const BOOK_JOB = 'book-leaves';

/** Tries per job (a kill -9 or a crash uses one); then the job is failed with its error. */
export const JOB_ATTEMPTS = 3;

const specSchema = z.string().min(1).max(10_000);
const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');
/** The coordinator's ayoayo version (queue/version.ts): a worker runs only its own. */
export const versionSchema = z.string().min(1).max(100);

/** Most files one job may carry (a tournament's few policies and networks). */
export const MAX_JOB_FILES = 32;
/**
 * The files a job's agent specs read (`policy:PATH`, `az:PATH,...`,
 * `minimax:...,eval=PATH`), by the path each spec names, and the sha256 of
 * the policy file the coordinator stored for it: a worker reads these from
 * the queue's store, checked by hash, and never its own disk.
 */
export const jobFilesSchema = z
  .record(z.string().min(1).max(4096), sha256Schema)
  .refine((files) => Object.keys(files).length <= MAX_JOB_FILES, {
    message: `at most ${MAX_JOB_FILES} files a job`,
  });

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
    version: versionSchema,
    /** The tournament's identity (a hash of all its chunks and files). */
    tournament: z.string().regex(/^[0-9a-f]{16,64}$/),
    index: z.number().int().nonnegative(),
    chunk: chunkSchema,
    files: jobFilesSchema,
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
    /** The agents' moves (a review replays them): at most the chunk's ply cap, checked by the coordinator. */
    actions: z.array(z.number().int().min(0).max(5)).max(1_000_000),
  }),
);

/** One chunk of an accuracy benchmark (eval/accuracy/chunk.ts's AccuracyChunk) as data. */
export const accuracyJobSchema = z
  .object({
    version: versionSchema,
    /** The benchmark's identity (a hash of all its chunks and files). */
    benchmark: z.string().regex(/^[0-9a-f]{16,64}$/),
    index: z.number().int().nonnegative(),
    chunk: z
      .object({
        spec: specSchema,
        rules: rulesSchema,
        seed: z.number().int(),
        positions: z
          .array(
            z
              .object({ index: z.number().int().nonnegative(), position: z.string().max(200) })
              .strict(),
          )
          .min(1),
        moveTimeoutMs: z.number().positive().optional(),
      })
      .strict(),
    files: jobFilesSchema,
  })
  .strict();
export type AccuracyJob = z.infer<typeof accuracyJobSchema>;

/** An accuracy chunk's answers as a worker returns them; checked against the chunk by the coordinator. */
export const accuracyResultSchema = z.array(
  z
    .object({
      index: z.number().int().nonnegative(),
      action: z.number().int().min(-1).max(5),
      value: z.number().min(-1).max(1).nullable(),
      ms: z.number().nonnegative(),
      failure: z.string().optional(),
    })
    .strict(),
);

/** Most leaves one opening book job holds (a build's chunks hold CHUNK_LEAVES). */
export const MAX_BOOK_JOB_LEAVES = 64;
/** The deepest book a queue job may be of: a worker plans the book to check the leaves it is sent. */
export const MAX_BOOK_JOB_PLIES = 8;
/** The largest endgame table a book job may ask a worker for (the solver's default, 61 MB). */
export const MAX_BOOK_JOB_ENDGAME_SEEDS = 16;
const hexSchema = (bytes: number, most: number) =>
  z
    .string()
    .max(most * bytes * 2)
    .regex(/^(?:[0-9a-f]{2})+$/, 'hex')
    .refine((text) => text.length % (bytes * 2) === 0, {
      message: `a whole number of ${bytes}-byte entries`,
    });

/**
 * Some leaves of an opening book to solve (solve/book/cache/build-book.ts's
 * BookChunk as data): the book's settings and the leaves' engine states (16
 * bytes each, in hex). A worker solves only leaves of the book the settings
 * name (it plans the book to check), with no budget, so a job costs what the
 * book's leaves cost.
 */
export const bookJobSchema = z
  .object({
    version: versionSchema,
    /** The build's identity (a hash of all its chunks). */
    book: z.string().regex(/^[0-9a-f]{16,64}$/),
    index: z.number().int().nonnegative(),
    chunk: z
      .object({
        settings: z
          .object({
            rules: rulesSchema,
            plies: z.number().int().min(1).max(MAX_BOOK_JOB_PLIES),
            endgameSeeds: z.number().int().min(0).max(MAX_BOOK_JOB_ENDGAME_SEEDS),
            tableBits: z.number().int().min(10).max(22),
          })
          .strict(),
        keys: hexSchema(16, MAX_BOOK_JOB_LEAVES).refine((text) => text.length > 0, {
          message: 'at least one leaf',
        }),
      })
      .strict(),
  })
  .strict();
export type BookJob = z.infer<typeof bookJobSchema>;

/** A book chunk's records as a worker returns them (28 bytes each, in hex); checked by the coordinator. */
export const bookResultSchema = hexSchema(28, MAX_BOOK_JOB_LEAVES);

/** Largest text file a training run sends back (metrics.csv of a long run is ~0.3 MB). */
export const MAX_RUN_FILE_BYTES = 32 * 1024 * 1024;
const fileText = z.string().max(MAX_RUN_FILE_BYTES);

export const trainJobSchema = z
  .object({
    version: versionSchema,
    sweep: folderNameSchema,
    /** The config the run trains with; the worker sets runsDir to a folder of its own. */
    config: trainConfigSchema,
    /** The files its baselines (evalOpponents, its algorithm's training opponents) read. */
    files: jobFilesSchema,
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

// The generator's state: four 32-bit integers (env/random.ts keeps them signed).
const rngStateSchema = z.array(z.number().int().min(-0x80000000).max(0xffffffff)).length(4);

/**
 * One iteration of one self-play shard of a training run. The worker builds
 * the shard's setup from the run's config (the shards of the run's algorithm,
 * as the trainer does) and takes the iteration's network from the queue's
 * store by its sha256; `version` is the coordinator's ayoayo (a worker of
 * another version refuses the job: its games could differ).
 */
export const shardJobSchema = z
  .object({
    version: versionSchema,
    /** The run's iteration, from 1 (for messages). */
    iteration: z.number().int().positive(),
    shard: z.number().int().nonnegative(),
    config: trainConfigSchema,
    network: sha256Schema,
    /** What the shard's games carry over, as its algorithm's codec encodes it (null: fresh games); the worker decodes and checks it. */
    carry: z.unknown().refine((value): boolean => value !== undefined, 'required'),
    rngState: rngStateSchema,
    moves: z
      .number()
      .int()
      .positive()
      .max(1 << 25),
  })
  .strict();
export type ShardJob = z.infer<typeof shardJobSchema>;

const statSchema = z.number().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** What a shard's worker sends back: train/shards' ShardResult, its carry and output encoded by the algorithm's codec. */
export const shardResultSchema = z
  .object({
    backend: z.string().min(1).max(100),
    carry: z.unknown().refine((value): boolean => value !== undefined, 'required'),
    rngState: rngStateSchema,
    output: z.unknown().refine((value): boolean => value !== undefined, 'required'),
    stats: z
      .object({
        plies: statSchema,
        games: statSchema,
        learnerSamples: statSchema,
        seconds: statSchema,
        meanGamePlies: statSchema,
        tallies: z
          .record(z.string().min(1).max(64), statSchema)
          .refine((tallies) => Object.keys(tallies).length <= 16, 'at most 16 tallies'),
      })
      .strict(),
  })
  .strict();
export type EncodedShardResult = z.infer<typeof shardResultSchema>;

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

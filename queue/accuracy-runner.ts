import { createHash } from 'node:crypto';
import type { AccuracyChunkRunner } from '../eval/accuracy/benchmark.ts';
import type { AccuracyAnswer, AccuracyChunk } from '../eval/accuracy/chunk.ts';
import { QueueError } from './errors.ts';
import { followJobs, JobResults } from './follow-jobs.ts';
import { ACCURACY_JOB, accuracyResultSchema, parseJobData } from './jobs.ts';
import { type QueueRunnerOptions, withQueueSession } from './queue-session.ts';

/** The job id of a benchmark's chunk: the same benchmark always gets the same ids. */
const accuracyJobId = (benchmark: string, index: number): string => `a-${benchmark}-${index}`;

/** Names a chunk in errors: its agent and positions. */
function describeChunk(chunks: readonly AccuracyChunk[], i: number): string {
  const chunk = chunks[i] as AccuracyChunk;
  const first = chunk.positions[0]?.index ?? 0;
  const last = chunk.positions.at(-1)?.index ?? first;
  return `accuracy chunk ${i} (${chunk.spec}, positions ${first}-${last})`;
}

/** Checks a chunk's answers against the chunk: exactly its positions, in order. */
function checkAnswers(value: unknown, chunk: AccuracyChunk, where: string): AccuracyAnswer[] {
  const answers = parseJobData(accuracyResultSchema, value, where);
  const expected = chunk.positions.map((p) => p.index);
  if (JSON.stringify(answers.map((a) => a.index)) !== JSON.stringify(expected)) {
    throw new QueueError(`${where}: the answers do not match the chunk's positions`);
  }
  return answers;
}

/**
 * An AccuracyChunkRunner for runAccuracy that asks the agents on queue
 * workers: one job per chunk, ids derived from the benchmark (a restarted
 * coordinator adds nothing and takes the finished chunks as they are), the
 * progress of running chunks followed, each chunk's answers taken once. As
 * for tournaments, chunks and policies that Redis loses are enqueued again.
 */
export function queueAccuracyRunner(
  url: string,
  options: QueueRunnerOptions = {},
): AccuracyChunkRunner {
  return (chunks, onAnswers) =>
    withQueueSession(
      url,
      chunks.map((c) => c.spec),
      options,
      async (session) => {
        const benchmark = createHash('sha256')
          .update(JSON.stringify({ chunks, files: session.files }))
          .digest('hex')
          .slice(0, 24);
        const results = new JobResults<AccuracyAnswer[]>(
          chunks.map((c) => c.positions.length),
          onAnswers,
        );
        const version = session.clients.version;
        await followJobs({
          clients: session.clients,
          log: session.log,
          ids: chunks.map((_, i) => accuracyJobId(benchmark, i)),
          jobs: chunks.map((chunk, index) => ({
            name: ACCURACY_JOB,
            data: { version, benchmark, index, chunk, files: session.files },
          })),
          beforeRequeue: session.storeFiles,
          noun: 'accuracy chunk',
          describe: (i) => describeChunk(chunks, i),
          onResult: (i, value) =>
            results.take(
              i,
              checkAnswers(value, chunks[i] as AccuracyChunk, describeChunk(chunks, i)),
            ),
          onProgress: (i, data) => results.progress(i, data),
          signal: options.signal,
          waitingLineEveryMs: options.waitingLineEveryMs,
        });
        return results.all();
      },
    );
}

import { type AgentSpec, createAgent } from '../../agents/spec.ts';
import { legalActions, parsePosition, Random, type Rules } from '../../env/index.ts';
import { threadJob } from '../../threads/job.ts';
import type { AgentFactory } from '../chunk.ts';

/**
 * A slice of an accuracy set for one agent: the unit of work of the benchmark
 * on a worker thread or a queue worker. Positions travel in notation, so that
 * a chunk is plain data.
 */
export interface AccuracyChunk {
  readonly spec: string;
  readonly rules: Rules;
  readonly seed: number;
  /** The positions, each with its index in the set. */
  readonly positions: readonly { readonly index: number; readonly position: string }[];
  /** Per-move limit for external engines (ms). */
  readonly moveTimeoutMs?: number;
}

/** An agent's answer to one position of the set. */
export interface AccuracyAnswer {
  readonly index: number;
  /** The action it played; -1 when it failed to give a legal one. */
  readonly action: number;
  /** Its own estimate of the position's value for the mover (a network's value head), if it has one. */
  readonly value: number | null;
  /** Milliseconds the move took. */
  readonly ms: number;
  /** Why it gave no legal action. */
  readonly failure?: string;
}

/** The generator an agent gets for position `index` of a benchmark run with `seed`. */
export function positionRandom(seed: number, index: number): Random {
  return Random.fromSeed(`${seed}|accuracy|${index}`);
}

/**
 * Asks the agent for a move in each position of the chunk, each a fresh
 * decision: a new game (no tree or history kept from the last position) and
 * a generator seeded by the position's index. An agent that throws or
 * answers an illegal action is recorded as failing there. The agent is made
 * from `spec` (default: the chunk's).
 */
export async function runAccuracyChunk(
  chunk: AccuracyChunk,
  onAnswer: (answer: AccuracyAnswer) => void = () => {},
  makeAgent: AgentFactory = createAgent,
  spec: string | AgentSpec = chunk.spec,
): Promise<AccuracyAnswer[]> {
  const { rules } = chunk;
  const agent = await makeAgent(spec, {
    rules,
    ...(chunk.moveTimeoutMs !== undefined ? { moveTimeoutMs: chunk.moveTimeoutMs } : {}),
  });
  try {
    const answers: AccuracyAnswer[] = [];
    for (const { index, position: notation } of chunk.positions) {
      const position = parsePosition(notation);
      const legal = legalActions(position, rules);
      agent.newGame?.();
      const started = performance.now();
      let answer: AccuracyAnswer;
      try {
        const action = await agent.act(position, {
          legal,
          rng: positionRandom(chunk.seed, index),
          rules,
        });
        const ms = performance.now() - started;
        const value = agent.estimateValue?.(position, rules) ?? null;
        answer = legal.includes(action)
          ? { index, action, value, ms }
          : { index, action: -1, value, ms, failure: `illegal action ${String(action)}` };
      } catch (err) {
        const failure = err instanceof Error ? err.message : String(err);
        answer = { index, action: -1, value: null, ms: performance.now() - started, failure };
      }
      answers.push(answer);
      onAnswer(answer);
    }
    return answers;
  } finally {
    await agent.close?.();
  }
}

/** An accuracy chunk as a worker thread is given it: with its agent's spec parsed. */
export interface AccuracyInput {
  readonly chunk: AccuracyChunk;
  readonly spec: AgentSpec;
}

/** Answers a chunk's positions on a worker thread (ACCURACY_JOB), counting each answer. */
export function answerPositions(
  input: AccuracyInput,
  count: () => void,
): Promise<AccuracyAnswer[]> {
  return runAccuracyChunk(input.chunk, count, createAgent, input.spec);
}

/** The thread job that answers an accuracy chunk. */
export const ACCURACY_JOB = threadJob(import.meta.url, answerPositions);

import type { Agent } from '../agents/agent.ts';
import {
  type AgentSpec,
  type CreateAgentOptions,
  createAgent,
  type JobFiles,
} from '../agents/spec.ts';
import type { Rules } from '../env/index.ts';
import { threadJob } from '../threads/job.ts';
import {
  type GameRecord,
  type MatchSettings,
  type PairingLabels,
  playScheduledGame,
  type ScheduledGame,
} from './match.ts';

/**
 * A slice of one pairing's games: the unit of work a tournament hands to a
 * worker thread or a queue worker (or plays in its own thread with `workers:
 * 0`). Specs, not agent objects, so that it can cross threads; the agents
 * are made for the slice and closed after it, so external engines are
 * started once per slice and never outlive it.
 */
export interface Chunk {
  readonly labels: PairingLabels;
  readonly games: readonly ScheduledGame[];
  readonly settings: MatchSettings;
  /** Per-move limit for external engines (ms). */
  readonly moveTimeoutMs?: number;
}

/**
 * The specs of a pairing's agents, `a` and `b` of its labels: parsed where
 * the chunk's maker parsed them (a worker thread is sent them so), else as
 * text (a queue job's, untrusted, parsed where its agents are made).
 */
export interface PairingSpecs {
  readonly a: string | AgentSpec;
  readonly b: string | AgentSpec;
}

/** Makes an agent from its spec: createAgent, or a caller's own (a queue worker's). */
export type AgentFactory = (
  spec: string | AgentSpec,
  options: CreateAgentOptions,
) => Promise<Agent>;

/** createAgent, reading the files its specs name from `files` only where given (a queue job's). */
export function agentFactoryWith(files: JobFiles | undefined): AgentFactory {
  return files === undefined
    ? createAgent
    : (spec, options) => createAgent(spec, { ...options, files });
}

/** Creates the agents of a pairing (a and b are one agent when their labels are equal). */
export async function createPairingAgents(
  labels: PairingLabels,
  specs: PairingSpecs,
  rules: Rules,
  moveTimeoutMs: number | undefined,
  makeAgent: AgentFactory = createAgent,
): Promise<{ a: Agent; b: Agent }> {
  const options = { rules, ...(moveTimeoutMs !== undefined ? { moveTimeoutMs } : {}) };
  const a = await makeAgent(specs.a, options);
  try {
    const b = labels.b === labels.a ? a : await makeAgent(specs.b, options);
    return { a, b };
  } catch (err) {
    await a.close?.();
    throw err;
  }
}

/**
 * Plays a chunk's games in order, reporting each record as it finishes (and
 * waiting for the report); its agents are made from `specs` (default: its labels).
 */
export async function runChunk(
  chunk: Chunk,
  onRecord: (record: GameRecord) => void | Promise<void> = () => {},
  makeAgent: AgentFactory = createAgent,
  specs: PairingSpecs = chunk.labels,
): Promise<GameRecord[]> {
  const agents = await createPairingAgents(
    chunk.labels,
    specs,
    chunk.settings.rules,
    chunk.moveTimeoutMs,
    makeAgent,
  );
  try {
    const records: GameRecord[] = [];
    for (const scheduled of chunk.games) {
      const record = await playScheduledGame(agents, chunk.labels, scheduled, chunk.settings);
      records.push(record);
      await onRecord(record);
    }
    return records;
  } finally {
    await agents.a.close?.();
    if (agents.b !== agents.a) await agents.b.close?.();
  }
}

/** A chunk as a worker thread is given it: with its agents' specs parsed, and a queue job's files. */
export interface GamesInput {
  readonly chunk: Chunk;
  readonly specs: { readonly a: AgentSpec; readonly b: AgentSpec };
  readonly files?: JobFiles;
}

/** Plays a chunk on a worker thread (GAMES_JOB), counting each game. */
export function playGames(input: GamesInput, count: () => void): Promise<GameRecord[]> {
  return runChunk(input.chunk, count, agentFactoryWith(input.files), input.specs);
}

/** The thread job that plays a tournament's chunk. */
export const GAMES_JOB = threadJob(import.meta.url, playGames);

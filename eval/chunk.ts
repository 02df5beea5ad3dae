import type { Agent } from '../agents/agent.ts';
import { type CreateAgentOptions, createAgent, type JobFiles } from '../agents/spec.ts';
import type { Rules } from '../env/index.ts';
import {
  type GameRecord,
  type MatchSettings,
  type PairingLabels,
  playScheduledGame,
  type ScheduledGame,
} from './match.ts';

/**
 * A slice of one pairing's games: the unit of work a tournament hands to a
 * worker thread (or plays in its own thread with `workers: 0`). Specs, not agent
 * objects, so that it can cross threads; the agents are made for the slice and
 * closed after it, so external engines are started once per slice and never
 * outlive it.
 */
export interface Chunk {
  readonly labels: PairingLabels;
  readonly games: readonly ScheduledGame[];
  readonly settings: MatchSettings;
  /** Per-move limit for external engines (ms). */
  readonly moveTimeoutMs?: number;
}

/** Makes an agent from its spec: createAgent, or a caller's own (a queue worker's). */
export type AgentFactory = (spec: string, options: CreateAgentOptions) => Promise<Agent>;

/** createAgent, reading the files its specs name from `files` only where given (a queue job's). */
export function agentFactoryWith(files: JobFiles | undefined): AgentFactory {
  return files === undefined
    ? createAgent
    : (spec, options) => createAgent(spec, { ...options, files });
}

/** Creates the agents of a pairing (a and b are one agent when their specs are equal). */
export async function createPairingAgents(
  labels: PairingLabels,
  rules: Rules,
  moveTimeoutMs: number | undefined,
  makeAgent: AgentFactory = createAgent,
): Promise<{ a: Agent; b: Agent }> {
  const options = { rules, ...(moveTimeoutMs !== undefined ? { moveTimeoutMs } : {}) };
  const a = await makeAgent(labels.a, options);
  try {
    const b = labels.b === labels.a ? a : await makeAgent(labels.b, options);
    return { a, b };
  } catch (err) {
    await a.close?.();
    throw err;
  }
}

/** Plays a chunk's games in order, reporting each record as it finishes (and waiting for the report). */
export async function runChunk(
  chunk: Chunk,
  onRecord: (record: GameRecord) => void | Promise<void> = () => {},
  makeAgent: AgentFactory = createAgent,
): Promise<GameRecord[]> {
  const agents = await createPairingAgents(
    chunk.labels,
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

import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

/** One thing a run keeps in memory, and the settings its size follows. */
export interface MemoryPart {
  readonly what: string;
  readonly bytes: number;
  /** `gamesAtOnce 8192`: the settings that size it, with their values. */
  readonly settings: readonly string[];
}

/** What a run (or one job of it) is estimated to need, before anything is allocated. */
export interface MemoryEstimate {
  readonly bytes: number;
  /** Largest first. */
  readonly parts: readonly MemoryPart[];
}

/** Node.js with the inference and gradient runtimes loaded, before a run allocates its own. */
export const PROCESS_BYTES = 256 * 1024 * 1024;
/** A worker thread (a self-play shard's, an evaluation's): its own copy of the code and heap. */
const THREAD_BYTES = 48 * 1024 * 1024;

/** The network's parameters: every hidden layer, the policy head and the value head. */
export function parameters(inputs: number, hidden: readonly number[]): number {
  let count = 0;
  let width = inputs;
  for (const out of [...hidden, NUM_ACTIONS, 1]) {
    count += width * out + out;
    width = out;
  }
  return count;
}

/** A part of `bytes`, sized by `settings` (named with their values in messages). */
export function part(what: string, bytes: number, settings: Record<string, unknown>): MemoryPart {
  return {
    what,
    bytes,
    settings: Object.entries(settings).map(([name, value]) => `${name} ${JSON.stringify(value)}`),
  };
}

/** The parts, with the process and its `threads` threads, largest first. */
export function total(parts: readonly MemoryPart[], threads: number): MemoryEstimate {
  const all = [
    ...parts,
    part('the process and its threads', PROCESS_BYTES + threads * THREAD_BYTES, {
      workers: threads,
    }),
  ].sort((a, b) => b.bytes - a.bytes);
  return { bytes: all.reduce((sum, p) => sum + p.bytes, 0), parts: all };
}

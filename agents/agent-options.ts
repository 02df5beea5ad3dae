/**
 * What the command line's registry of agent kinds (spec.ts) makes agents
 * with: the rules, the limits of external engines, and a queue job's files.
 */
import type { JobFiles } from '../models/load-policy.ts';
import type { AgentMakingOptions } from './agent-kinds.ts';

export type { JobFiles };

export interface CreateAgentOptions extends AgentMakingOptions {
  /** Per-move time limit of external engines (ms, default 5000). */
  readonly moveTimeoutMs?: number;
  /** Extra time for an external engine's first move after it starts (ms, default 5000). */
  readonly startupMs?: number;
  /** A queue job's files: the only files the agent may read (default: the disk). */
  readonly files?: JobFiles;
}

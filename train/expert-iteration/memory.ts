import { coreEncoding, coreTreeBytes } from '../../agents/puct/core/search-core.ts';
import { treeBytes } from '../../agents/puct/tree.ts';
import { observationSize } from '../../env/gym/observation.ts';
import { core } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { endgameOffsets } from '../../solve/endgame/build.ts';
import { type MemoryEstimate, type MemoryPart, parameters, part, total } from '../memory/parts.ts';
import { observationOf } from '../settings/schema.ts';
import type { ExpertIterationConfig } from './settings.ts';
import { RESCORING_TABLE_BITS } from './targets/solver-rescoring.ts';

const { STATE_SIZE } = core;

/** A self-play game's logged move: its board, the policy target, the value target, the solver's bounds. */
const LOGGED_MOVE_BYTES = STATE_SIZE + NUM_ACTIONS * 4 + 4 + 2;
/** A finished game's position handed to the learner: board, policy target, value target. */
const POSITION_BYTES = STATE_SIZE + NUM_ACTIONS * 4 + 4;
/** A replay row besides its observation: board, legal mask, policy and value targets. */
const REPLAY_ROW_BYTES = STATE_SIZE + 2 * NUM_ACTIONS * 4 + 4;
/**
 * A replay row in a checkpoint: its copy as float32 numbers (board, policy,
 * value), then that copy as base64 text in the checkpoint's JSON.
 */
const CHECKPOINT_ROW_BYTES = ((STATE_SIZE + NUM_ACTIONS + 1) * 4 * 7) / 3;

/** A game's search trees: in the WebAssembly core where it encodes the observation, else PuctSearch's. */
function searchTreeBytes(config: ExpertIterationConfig, simulations: number): number {
  return coreEncoding(observationOf(config)) !== null
    ? coreTreeBytes(simulations)
    : treeBytes(simulations);
}

/** The games one self-play shard plays at once, and their searches. */
function shardGamesParts(config: ExpertIterationConfig, games: number): MemoryPart[] {
  const ei = config.expertIteration;
  const inputs = observationSize(observationOf(config));
  // The logs are copied once more when a shard hands its games in progress back.
  const perGame = 2 * config.maxPlies * LOGGED_MOVE_BYTES + STATE_SIZE + inputs * 4;
  return [
    part('self-play games in progress', games * perGame, {
      gamesAtOnce: ei.gamesAtOnce,
      maxPlies: config.maxPlies,
    }),
    part('their search trees', games * searchTreeBytes(config, ei.simulations), {
      gamesAtOnce: ei.gamesAtOnce,
      simulations: ei.simulations,
    }),
  ];
}

/** An iteration's finished positions (the log doubles as it fills). */
function positionsPart(config: ExpertIterationConfig, moves: number): MemoryPart {
  return part("an iteration's positions", 2 * moves * POSITION_BYTES, {
    movesPerIteration: config.expertIteration.movesPerIteration,
  });
}

/** A table entry of the rescoring solver (solve/table.ts). */
const PROOF_ENTRY_BYTES = 32;

/**
 * With `solverNodes`, the rescoring solvers: on each of `copies` threads the
 * endgame table (two bytes a board, read from the cache once per thread) and
 * a proof table of its own. None without.
 */
function solverParts(config: ExpertIterationConfig, copies: number): MemoryPart[] {
  const { solverNodes, solverEndgameSeeds: seeds } = config.expertIteration;
  if (solverNodes === 0) return [];
  const boards = seeds === 0 ? 0 : (endgameOffsets(seeds)[seeds + 1] as number);
  return [
    part(
      'the rescoring solvers: an endgame table and a proof table a thread',
      copies * (2 * boards + PROOF_ENTRY_BYTES * 2 ** RESCORING_TABLE_BITS),
      { solverNodes, solverEndgameSeeds: seeds },
    ),
  ];
}

/**
 * What an expert-iteration run on `threads` worker threads grows with its
 * settings: its games, searches, positions, replay window and, with
 * `solverNodes`, the rescoring solvers (a copy in each thread and one in
 * the main thread, which loads the endgame table first).
 */
export function expertIterationMemory(
  config: ExpertIterationConfig,
  threads: number,
): MemoryPart[] {
  const ei = config.expertIteration;
  const inputs = observationSize(observationOf(config));
  const rows = ei.movesPerIteration * ei.replayIterations;
  return [
    ...solverParts(config, threads + 1),
    ...shardGamesParts(config, ei.gamesAtOnce),
    positionsPart(config, ei.movesPerIteration),
    part(
      'the replay window, and its copy in a checkpoint',
      rows * (inputs * 4 + REPLAY_ROW_BYTES + CHECKPOINT_ROW_BYTES),
      { movesPerIteration: ei.movesPerIteration, replayIterations: ei.replayIterations },
    ),
  ];
}

/** The memory one self-play shard's job needs on a queue worker: its games, their searches, its moves. */
export function shardMemory(config: ExpertIterationConfig, moves: number): MemoryEstimate {
  const ei = config.expertIteration;
  const games = Math.ceil(ei.gamesAtOnce / ei.selfPlayShards);
  const inputs = observationSize(observationOf(config));
  const network = part('the network', 2 * parameters(inputs, config.hidden) * 4, {
    hidden: config.hidden,
  });
  return total(
    [
      ...shardGamesParts(config, games),
      ...solverParts(config, 1),
      positionsPart(config, moves),
      network,
    ],
    1,
  );
}

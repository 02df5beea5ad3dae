/**
 * One game of the accuracy set's generator (generate.ts), the unit of work a
 * worker thread is given: the game played between two agents of the mix, a few
 * of its positions per phase sampled and solved, the critical ones returned
 * with their values. Everything is a function of the task: the agents, the
 * opening and the samples come from the game's seed, and the solver's table
 * is cleared before each game, so that whether a position is proven within
 * the node budget does not depend on which games a thread solved before.
 */
import type { Agent } from '../../agents/agent.ts';
import { type AgentSpec, createAgent } from '../../agents/spec.ts';
import {
  applyAction,
  formatPosition,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  Random,
  type Rules,
  rulesKey,
} from '../../env/index.ts';
import { loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import { Solver, valueWord } from '../../solve/index.ts';
import { threadJob } from '../../threads/job.ts';
import { openingFor } from '../openings.ts';
import type { ExactValue, PhaseCounts, SetPositionLine } from './accuracy-set.ts';
import { FIRST_PLY, PHASES, type Phase, phaseOf } from './phases.ts';

/** Positions sampled per game and phase, for the generator's default mix. */
export type PhaseSamples = Readonly<Record<Phase, number>>;

export interface FixtureGameTask {
  readonly seed: number;
  /** The game's index in the seed's sequence. */
  readonly game: number;
  /** The agents each seat is drawn from. */
  readonly agents: readonly string[];
  readonly rules: Rules;
  /** Random plies before the agents play: drawn uniformly from this range. */
  readonly openingPlies: readonly [number, number];
  /** The solver's budget per position. */
  readonly nodes: number;
  readonly samples: PhaseSamples;
  /** log2 of the solver table's entries. */
  readonly tableBits: number;
  /** The solver looks up every board of at most this many seeds in the endgame table (0: none). */
  readonly endgameSeeds: number;
  /** Plies after which the game is stopped. */
  readonly maxPlies: number;
}

/** What one game gave: its critical positions (latest first) and the counts per phase. */
export interface FixtureGameResult {
  readonly game: number;
  readonly plies: number;
  readonly positions: readonly SetPositionLine[];
  readonly phases: Readonly<Record<Phase, Omit<PhaseCounts, 'duplicate'>>>;
}

// A thread plays many games: its agents and its solver are made once.
const agents = new Map<string, Agent>();
let solver: Solver | null = null;

/** The thread's agent of the spec written `text`, made from `spec` (it, or its parse) the first time. */
async function agentFor(text: string, spec: string | AgentSpec, rules: Rules): Promise<Agent> {
  const key = `${text}|${rulesKey(rules)}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    agent = await createAgent(spec, { rules });
    agents.set(key, agent);
  }
  return agent;
}

let solverKey = '';

/** The thread's solver for the task's settings; the endgame table is read from the cache once. */
function solverFor(rules: Rules, tableBits: number, endgameSeeds: number): Solver {
  const key = `${rulesKey(rules)}|${tableBits}|${endgameSeeds}`;
  if (solver === null || key !== solverKey) {
    const endgame = endgameSeeds > 0 ? loadEndgame(endgameSeeds, rules) : null;
    solver = new Solver({ rules, tableBits, endgame });
    solverKey = key;
  }
  return solver;
}

/** `plies` uniformly random plies from the start, drawn again until the game goes on. */
function randomOpening(rng: Random, plies: number, rules: Rules): Position {
  for (;;) {
    let position = initialPosition();
    let played = 0;
    while (played < plies && outcome(position, rules) === null) {
      position = applyAction(position, rng.pick(legalActions(position, rules)), rules);
      played++;
    }
    if (played === plies && outcome(position, rules) === null) return position;
  }
}

/** `count` distinct items of `items`, in their order, chosen at random. */
function sample<T>(items: readonly T[], count: number, rng: Random): T[] {
  const pool = [...items];
  const chosen = new Set<T>();
  while (chosen.size < Math.min(count, items.length)) {
    chosen.add(pool.splice(rng.int(pool.length), 1)[0] as T);
  }
  return items.filter((item) => chosen.has(item));
}

/**
 * Plays and solves one game of the generator (see the module's comment),
 * the agents made from `specs`: the task's agents (default), or their parses
 * in their order.
 */
export async function playFixtureGame(
  task: FixtureGameTask,
  onSolved: () => void = () => {},
  specs: readonly (string | AgentSpec)[] = task.agents,
): Promise<FixtureGameResult> {
  const { rules } = task;
  const rng = Random.fromSeed(`${task.seed}|accuracy-game|${task.game}`);
  const seats = [rng.pick(task.agents), rng.pick(task.agents)] as const;
  const [least, most] = task.openingPlies;
  const openingPlies = least + rng.int(most - least + 1);
  const balanced = task.game % 2 === 1;
  const opening = balanced
    ? openingFor(task.seed, task.game, openingPlies, rules).position
    : randomOpening(rng, openingPlies, rules);
  const seatRngs = [rng.fork('seat 0'), rng.fork('seat 1')] as const;
  const specOf = (seat: string) => specs[task.agents.indexOf(seat)] as string | AgentSpec;
  const players = [
    await agentFor(seats[0], specOf(seats[0]), rules),
    await agentFor(seats[1], specOf(seats[1]), rules),
  ] as const;
  for (const agent of new Set(players)) agent.newGame?.();

  // The game, every position from FIRST_PLY on that has a choice of moves.
  const candidates: { readonly position: Position; readonly ply: number }[] = [];
  let position = opening;
  let ply = openingPlies;
  while (outcome(position, rules) === null && ply < task.maxPlies) {
    const legal = legalActions(position, rules);
    if (ply >= FIRST_PLY && legal.length > 1) candidates.push({ position, ply });
    const seat = position.toMove;
    let action: number;
    try {
      action = await players[seat].act(position, { legal, rng: seatRngs[seat], rules });
    } catch {
      break; // A failing agent ends the game; its positions so far stand.
    }
    if (!legal.includes(action)) break;
    position = applyAction(position, action, rules);
    ply++;
  }

  const phases = Object.fromEntries(
    PHASES.map((p) => [p, { sampled: 0, critical: 0, notCritical: 0, unproven: 0 }]),
  ) as Record<Phase, Omit<PhaseCounts, 'duplicate'>>;
  const chosen = PHASES.flatMap((phase) =>
    sample(
      candidates.filter((c) => phaseOf(c.ply) === phase),
      task.samples[phase],
      rng,
    ),
  );
  const solve = solverFor(rules, task.tableBits, task.endgameSeeds);
  solve.clear();
  const positions: SetPositionLine[] = [];
  // Latest first: the earlier positions' searches then find the later ones proven.
  for (const c of chosen.sort((a, b) => b.ply - a.ply)) {
    const phase = phaseOf(c.ply);
    const counts = phases[phase];
    counts.sampled++;
    const solution = solve.solveState(c.position.stateView, { nodes: task.nodes, moves: true });
    onSolved();
    if (!solution.complete) {
      counts.unproven++;
      continue;
    }
    const moves: (ExactValue | null)[] = [];
    const values = new Set<number>();
    for (let a = 0; a < 6; a++) {
      const legal = (solution.legalMask & (1 << a)) !== 0;
      moves.push(legal ? valueWord(solution.moveLo[a] as number) : null);
      if (legal) values.add(solution.moveLo[a] as number);
    }
    if (values.size < 2) {
      counts.notCritical++;
      continue;
    }
    counts.critical++;
    positions.push({
      position: formatPosition(c.position),
      ply: c.ply,
      phase,
      value: valueWord(solution.lo),
      moves,
      agents: [seats[0], seats[1]],
      opening: `${balanced ? 'balanced' : 'random'}-${openingPlies}`,
      game: task.game,
    });
  }
  return { game: task.game, plies: ply, positions, phases };
}

/** A game of the generator as a worker thread is given it: with its agents' specs parsed, in their order. */
export interface FixtureGameInput {
  readonly task: FixtureGameTask;
  readonly specs: readonly AgentSpec[];
}

/** Plays and solves a game on a worker thread (FIXTURE_GAME_JOB), counting each position solved. */
export function playFixtureGameJob(
  input: FixtureGameInput,
  count: () => void,
): Promise<FixtureGameResult> {
  return playFixtureGame(input.task, count, input.specs);
}

/** The thread job that plays and solves a game of the generator. */
export const FIXTURE_GAME_JOB = threadJob(import.meta.url, playFixtureGameJob);

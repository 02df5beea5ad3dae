/**
 * The accuracy set's generator: games between the agents of a mix, a few
 * positions of each phase sampled from each game and solved (fixture-game.ts,
 * on eval's worker threads), the critical ones kept, until the set holds the
 * positions asked for. Every finished game is appended to `OUT.partial` as it
 * comes back, so that a generation stopped and started again with the same
 * settings goes on where it was; the set is the first games in order whose
 * positions reach the count, so it is the same however many threads played
 * them and in whatever order they finished.
 */
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { type AgentSpec, parseAgentSpec } from '../../agents/spec.ts';
import { type Rules, type RulesInput, resolveRules } from '../../env/index.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../../solve/endgame/cache/table-cache.ts';
import { capWorkers } from '../../threads/pool.ts';
import { agentThreadPool } from '../agent-threads.ts';
import {
  type AccuracySet,
  AccuracySetError,
  formatAccuracySet,
  type PhaseCounts,
  type SetHeader,
  type SetPositionLine,
} from './accuracy-set.ts';
import {
  FIXTURE_GAME_JOB,
  type FixtureGameResult,
  type FixtureGameTask,
  type PhaseSamples,
  playFixtureGame,
} from './fixture-game.ts';
import { PHASES, type Phase } from './phases.ts';

/** The agents whose games the shipped sets come from: strong, of two styles, none timed (so the games replay). */
export const DEFAULT_GENERATOR_AGENTS: readonly string[] = [
  'minimax:10',
  'minimax:12',
  'az:models/pretrained,sims=100',
  'az:models/pretrained,sims=300',
];
/**
 * Positions sampled per game and phase: with the endgame table the solver
 * proves nearly every position of a real game in milliseconds, so most of
 * each game's plies are taken (games between strong agents last 20-35
 * plies), the two of ply 4-5 and at most six of each later phase, so that
 * the long games' endings do not crowd out the middle games.
 */
export const DEFAULT_SAMPLES: PhaseSamples = {
  '4-5': 2,
  '6-11': 6,
  '12-17': 6,
  '18-23': 6,
  '24+': 6,
};
/** The solver's node budget per position (a few seconds on one core of this machine). */
export const DEFAULT_NODES = 4_000_000;
export const DEFAULT_OPENING_PLIES: readonly [number, number] = [0, 8];
const DEFAULT_TABLE_BITS = 21;
const DEFAULT_MAX_PLIES = 200;

export interface GenerateOptions {
  readonly seed: number;
  /** Critical positions wanted: the set holds at least this many (whole games). */
  readonly positions: number;
  /** The set's file. */
  readonly out: string;
  readonly agents?: readonly string[];
  readonly rules?: RulesInput;
  readonly openingPlies?: readonly [number, number];
  /** The solver's budget per position, in nodes. */
  readonly nodes?: number;
  readonly samples?: PhaseSamples;
  readonly tableBits?: number;
  /** The endgame table's seeds (0: none). */
  readonly endgameSeeds?: number;
  readonly maxPlies?: number;
  /** Worker threads (default and most: one per core); 0 plays in this thread. */
  readonly workers?: number;
  /** Sets whose positions this one must not repeat (the main set, for the hold-out). */
  readonly exclude?: readonly AccuracySet[];
  /** Games after which the generator gives up (default 50 per position asked). */
  readonly maxGames?: number;
  /** The command that makes the set, for its header. */
  readonly generator: string;
  /** The solver's version, for the header. */
  readonly solver: string;
  readonly onProgress?: (progress: {
    readonly positions: number;
    readonly target: number;
    readonly games: number;
  }) => void;
}

export interface GenerateResult {
  readonly path: string;
  readonly header: SetHeader;
  /** Games taken from an earlier, interrupted generation. */
  readonly resumedGames: number;
}

type GameSettings = Omit<FixtureGameTask, 'game'>;

/** Generates an accuracy set into `options.out` (see the module's comment). */
export async function generateAccuracySet(options: GenerateOptions): Promise<GenerateResult> {
  const { settings, specs } = gameSettings(options);
  if (!Number.isInteger(options.positions) || options.positions < 1) {
    throw new RangeError(`positions must be a positive integer, got ${options.positions}`);
  }
  const maxGames = options.maxGames ?? options.positions * 50;
  const partial = `${options.out}.partial`;
  const results = readPartial(partial, settings);
  const resumedGames = results.size;
  if (resumedGames === 0) writeFileSync(partial, `${JSON.stringify({ settings })}\n`);
  const excluded = new Set(options.exclude?.flatMap((s) => s.positions.map((p) => p.position)));
  const progress = (): void => {
    let positions = 0;
    for (const r of results.values()) positions += r.positions.length;
    options.onProgress?.({ positions, target: options.positions, games: results.size });
  };
  const taken = (result: FixtureGameResult): void => {
    results.set(result.game, result);
    appendFileSync(partial, `${JSON.stringify(result)}\n`);
    progress();
  };
  progress();
  const enough = (): boolean => assemble(results, options.positions, excluded).complete;
  const requested = options.workers ?? capWorkers(Number.POSITIVE_INFINITY);
  const workers = capWorkers(requested);
  let next = 0;
  const nextGame = (): number | null => {
    while (results.has(next)) next++;
    if (next >= maxGames) return null;
    return next++;
  };
  if (workers === 0) {
    while (!enough()) {
      const game = nextGame();
      if (game === null) break;
      taken(await playFixtureGame({ ...settings, game }, undefined, specs));
    }
  } else if (!enough()) {
    await playOnPool(workers, settings, specs, nextGame, taken, enough);
  }
  const set = assemble(results, options.positions, excluded);
  if (!set.complete) {
    throw new AccuracySetError(
      `only ${set.positions.length} critical positions in ${set.games} games (at most ${maxGames}): give the solver more nodes or sample more positions per game`,
    );
  }
  const header: Omit<SetHeader, 'sha256' | 'positions' | 'format' | 'version'> = {
    generator: options.generator,
    seed: options.seed,
    solver: options.solver,
    budget: { nodes: settings.nodes, endgameSeeds: settings.endgameSeeds },
    rules: settings.rules,
    agents: [...settings.agents],
    openingPlies: [settings.openingPlies[0], settings.openingPlies[1]],
    games: set.games,
    phases: set.phases,
  };
  const text = formatAccuracySet(header, set.positions);
  writeFileAtomic(options.out, text);
  rmSync(partial, { force: true });
  const written = JSON.parse(text.slice(0, text.indexOf('\n'))) as SetHeader;
  return { path: options.out, header: written, resumedGames };
}

/** The settings of a generation's games (as its partial file holds them), and its agents' specs parsed. */
function gameSettings(options: GenerateOptions): { settings: GameSettings; specs: AgentSpec[] } {
  const agents = options.agents ?? DEFAULT_GENERATOR_AGENTS;
  if (agents.length === 0) throw new RangeError('the generator needs at least one agent');
  const specs = agents.map((spec) => parseAgentSpec(spec));
  const openingPlies = options.openingPlies ?? DEFAULT_OPENING_PLIES;
  const [least, most] = openingPlies;
  if (
    !Number.isInteger(least) ||
    !Number.isInteger(most) ||
    least < 0 ||
    most < least ||
    most > 40
  ) {
    throw new RangeError(`opening plies must be a range within 0..40, got ${least}..${most}`);
  }
  const nodes = options.nodes ?? DEFAULT_NODES;
  if (!Number.isInteger(nodes) || nodes < 1) {
    throw new RangeError(`nodes must be a positive integer, got ${nodes}`);
  }
  const endgameSeeds = options.endgameSeeds ?? DEFAULT_ENDGAME_SEEDS;
  if (!Number.isInteger(endgameSeeds) || endgameSeeds < 0 || endgameSeeds > MAX_ENDGAME_SEEDS) {
    throw new RangeError(
      `endgame seeds must be an integer in 0..${MAX_ENDGAME_SEEDS}, got ${endgameSeeds}`,
    );
  }
  const rules: Rules = resolveRules(options.rules);
  const settings: GameSettings = {
    seed: options.seed,
    agents: [...agents],
    rules,
    openingPlies: [least, most],
    nodes,
    samples: options.samples ?? DEFAULT_SAMPLES,
    tableBits: options.tableBits ?? DEFAULT_TABLE_BITS,
    endgameSeeds,
    maxPlies: options.maxPlies ?? DEFAULT_MAX_PLIES,
  };
  return { settings, specs };
}

/** The games an interrupted generation with the same settings finished; none without its file. */
function readPartial(path: string, settings: GameSettings): Map<number, FixtureGameResult> {
  const results = new Map<number, FixtureGameResult>();
  if (!existsSync(path)) return results;
  const lines = readFileSync(path, 'utf8').split('\n');
  let first: { settings?: unknown };
  try {
    first = JSON.parse(lines[0] ?? '') as { settings?: unknown };
  } catch {
    throw new AccuracySetError(`${path} is not a generator's partial file: remove it`);
  }
  // Settings as they were written (JSON drops nothing this object holds).
  const same = JSON.parse(JSON.stringify(settings)) as unknown;
  if (!isDeepStrictEqual(first.settings, same)) {
    throw new AccuracySetError(
      `${path} holds the games of a generation with other settings: generate with the same ones to go on, or remove it to start again`,
    );
  }
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    try {
      const result = JSON.parse(line) as FixtureGameResult;
      results.set(result.game, result);
    } catch {
      // A line cut short by a kill: that game is played again.
    }
  }
  return results;
}

/**
 * Keeps `workers` games on the threads at a time, taking each result as it
 * comes, until `enough()` or no game is left; the games still running then
 * are dropped.
 */
async function playOnPool(
  workers: number,
  settings: GameSettings,
  specs: readonly AgentSpec[],
  nextGame: () => number | null,
  taken: (result: FixtureGameResult) => void,
  enough: () => boolean,
): Promise<void> {
  const pool = agentThreadPool(workers);
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  let stopping = false;
  const start = (): boolean => {
    const game = nextGame();
    if (game === null) return false;
    const run: Promise<void> = pool
      .run(FIXTURE_GAME_JOB, { task: { ...settings, game }, specs })
      .then(
        (result) => {
          if (!stopping) taken(result);
        },
        (err: unknown) => {
          if (!stopping) failure ??= err;
        },
      )
      .finally(() => running.delete(run));
    running.add(run);
    return true;
  };
  try {
    while (failure === null && !enough()) {
      let started = true;
      while (running.size < workers && started) started = start();
      if (running.size === 0) break;
      await Promise.race(running);
    }
  } finally {
    stopping = true;
    await pool.destroy().catch(() => {});
  }
  if (failure !== null) throw failure;
}

/** The set the results make so far: the first games in order whose new critical positions reach the target. */
function assemble(
  results: ReadonlyMap<number, FixtureGameResult>,
  target: number,
  excluded: ReadonlySet<string>,
): {
  readonly complete: boolean;
  readonly games: number;
  readonly positions: SetPositionLine[];
  readonly phases: Record<Phase, PhaseCounts>;
} {
  const phases = Object.fromEntries(
    PHASES.map((p) => [p, { sampled: 0, critical: 0, notCritical: 0, unproven: 0, duplicate: 0 }]),
  ) as Record<Phase, PhaseCounts>;
  const seen = new Set<string>();
  const positions: SetPositionLine[] = [];
  let games = 0;
  for (; positions.length < target; games++) {
    const result = results.get(games);
    if (result === undefined) break;
    for (const phase of PHASES) {
      const counts = phases[phase];
      const found = result.phases[phase];
      counts.sampled += found.sampled;
      counts.critical += found.critical;
      counts.notCritical += found.notCritical;
      counts.unproven += found.unproven;
    }
    for (const p of [...result.positions].sort((a, b) => a.ply - b.ply)) {
      if (seen.has(p.position) || excluded.has(p.position)) {
        phases[p.phase].duplicate++;
        continue;
      }
      seen.add(p.position);
      positions.push(p);
    }
  }
  return { complete: positions.length >= target, games, positions, phases };
}

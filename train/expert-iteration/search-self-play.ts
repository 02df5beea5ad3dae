import { coreEncoding } from '../../agents/puct/core/search-core.ts';
import { type ObservationConfig, ObservationEncoder } from '../../env/gym/observation.ts';
import { core, type Random, type RuleCode, type Rules, ruleCode } from '../../env/index.ts';
import { type ForwardPass, NUM_ACTIONS } from '../../models/mlp-runner.ts';
import type { EndgameValues } from '../../solve/index.ts';
import type { SelfPlayStats } from '../iteration-stats.ts';
import { CoreSearches } from './core-searches.ts';
import type { PositionSink } from './position-log.ts';
import type { SearchEngine, SearchesSetup, SelfPlaySearches } from './self-play-searches.ts';
import { type SearchTarget, type SearchTargetKind, searchTarget } from './targets/index.ts';
import {
  type ProvenMoves,
  provenValue,
  rescorePolicy,
  SolverRescoring,
  unknownMoves,
} from './targets/solver-rescoring.ts';
import type { TrainingOpenings } from './training-openings.ts';
import { TypeScriptSearches } from './typescript-searches.ts';

const { STATE_SIZE, TO_MOVE, finalScores, legalMask, playInPlace } = core;

export interface SearchSelfPlayOptions {
  /** Games played at once. */
  readonly games: number;
  readonly rules: Rules;
  readonly observation: ObservationConfig;
  /** Searched moves after which a game is stopped and scored as a draw (the random opening not counted). */
  readonly maxPlies: number;
  /** Simulations after the root's expansion. */
  readonly simulations: number;
  /** How each move is searched and what the network learns from it (targets/). */
  readonly policyTarget: SearchTargetKind;
  /** c_scale of the completed-Q target: lower keeps more of the network's prior in it. */
  readonly completedQScale: number;
  /**
   * Weight of the search's root value in the value target, the rest being the
   * game's outcome: the root value is less noisy than one game's result, the
   * outcome unbiased by the network (0: outcome only).
   */
  readonly searchValueWeight: number;
  /**
   * Nodes of the exact solver on each searched position, whose proofs
   * rescore its targets (targets/solver-rescoring.ts); 0: none.
   */
  readonly solverNodes: number;
}

/** The searches for `setup`: the core's where `engine` is 'core' and it encodes the observation. */
function selfPlaySearches(setup: SearchesSetup, engine: SearchEngine): SelfPlaySearches {
  const encoding = engine === 'core' ? coreEncoding(setup.encoder.config) : null;
  return encoding !== null ? new CoreSearches(setup, encoding) : new TypeScriptSearches(setup);
}

/** What a SearchSelfPlay reports of a `collect`: plies are searched moves. */
export interface SearchSelfPlayStats extends SelfPlayStats {
  /** Positions run through the network. */
  evaluations: number;
  /** Searched positions whose value the solver proved (their targets exact). */
  proven: number;
}

/** Statistics of self-play that has not started. */
export function emptySearchStats(): SearchSelfPlayStats {
  return {
    plies: 0,
    games: 0,
    learnerSamples: 0,
    seconds: 0,
    meanGamePlies: 0,
    evaluations: 0,
    proven: 0,
  };
}

/**
 * The games of a SearchSelfPlay between two `collect`s, as plain arrays (a
 * search in progress restarts from its root anyway), so that another thread
 * can carry them on.
 */
export interface GamesInProgress {
  /** STATE_SIZE bytes per game: its current position. */
  readonly states: Uint8Array;
  /** Searched moves logged per game. */
  readonly logCount: Int32Array;
  /** Searched moves played per game (each one logged). */
  readonly plies: Int32Array;
  /**
   * Per game, `maxPlies` slots of: the searched position, its policy target,
   * the search's root value, the solver's bounds on its value (lo, hi: -1, 1
   * where it proved nothing).
   */
  readonly logStates: Uint8Array;
  readonly logPolicies: Float32Array;
  readonly logValues: Float32Array;
  readonly logBounds: Int8Array;
}

/**
 * Expert iteration's self-play: `games` games at once, every move chosen by
 * a search with the network at its leaves. Each search is stepped one
 * simulation at a time and the leaves of all games go through the network in
 * one batched call (onnxruntime-node, or tfjs on the fallback:
 * models/inference/), which is what makes a search behind every move
 * affordable; the searches themselves run in the WebAssembly search core
 * where it encodes the observation, else in TypeScript, the same games either
 * way (self-play-searches.ts). How each search runs and what it teaches is the run's search
 * target (targets/: Gumbel's completed-Q policy or AlphaZero's visit
 * counts). A position and its targets go to the sink when its game ends, the
 * value target mixing the outcome for the player who moved there with the
 * search's value. With `solverNodes`, the exact solver rescores each
 * searched position's targets where it proves something within that budget.
 */
export class SearchSelfPlay {
  readonly #n: number;
  /** What turns a position into the network's input (the searches' and the positions' they log). */
  readonly encoder: ObservationEncoder;
  readonly #target: SearchTarget;
  readonly #searches: SelfPlaySearches;
  /** Per game: searched moves played. */
  readonly #plies: Int32Array;
  readonly #states: Uint8Array;
  // Each game's searched positions so far (its searched moves): state, target policy (the mover is in the state).
  readonly #logStates: Uint8Array;
  readonly #logPolicies: Float32Array;
  readonly #logValues: Float32Array;
  readonly #logBounds: Int8Array;
  readonly #logCount: Int32Array;
  readonly #rescoring: SolverRescoring | null;
  /** Per game, what the solver proved of the position being searched. */
  readonly #proven: ProvenMoves[];
  readonly #scores = new Int32Array(2);
  readonly #ruleCode: RuleCode;
  /** Positions run through the network so far (for benchmarks). */
  evaluations = 0;

  /**
   * `forward` runs the network (its weights may change between `collect`s);
   * `endgame`, the table the rescoring solver looks small boards up in
   * (built for the same rules; it changes what the budget proves); `engine`,
   * whose searches play (self-play-searches.ts: the same games either way).
   */
  constructor(
    private readonly forward: ForwardPass,
    private readonly options: SearchSelfPlayOptions,
    private readonly openings: TrainingOpenings,
    endgame: EndgameValues | null = null,
    engine: SearchEngine = 'core',
  ) {
    const n = options.games;
    this.#n = n;
    this.encoder = new ObservationEncoder(options.observation, options.rules);
    this.#target = searchTarget(options.policyTarget, n, options.completedQScale);
    this.#searches = selfPlaySearches(
      {
        games: n,
        rules: options.rules,
        simulations: options.simulations,
        encoder: this.encoder,
        target: this.#target,
        completedQScale: options.completedQScale,
        gumbel: options.policyTarget === 'completed-q',
      },
      engine,
    );
    this.#plies = new Int32Array(n);
    this.#states = new Uint8Array(n * STATE_SIZE);
    this.#logStates = new Uint8Array(n * options.maxPlies * STATE_SIZE);
    this.#logPolicies = new Float32Array(n * options.maxPlies * NUM_ACTIONS);
    this.#logValues = new Float32Array(n * options.maxPlies);
    this.#logBounds = new Int8Array(n * options.maxPlies * 2);
    this.#rescoring =
      options.solverNodes > 0
        ? new SolverRescoring(options.rules, endgame, options.solverNodes)
        : null;
    this.#proven = Array.from({ length: n }, () => unknownMoves(0));
    this.#logCount = new Int32Array(n);
    this.#ruleCode = ruleCode(options.rules);
  }

  /** Starts fresh games everywhere (at run start and each checkpoint boundary). */
  reset(rng: Random): void {
    for (let g = 0; g < this.#n; g++) this.#newGame(g, rng);
  }

  /** The games in progress (copies), to carry them on elsewhere with `importGames`. */
  exportGames(): GamesInProgress {
    return {
      states: this.#states.slice(),
      logCount: this.#logCount.slice(),
      plies: this.#plies.slice(),
      logStates: this.#logStates.slice(),
      logPolicies: this.#logPolicies.slice(),
      logValues: this.#logValues.slice(),
      logBounds: this.#logBounds.slice(),
    };
  }

  /** Takes over games exported by a SearchSelfPlay of the same options. */
  importGames(games: GamesInProgress): void {
    for (const [name, to, from] of [
      ['states', this.#states, games.states],
      ['logCount', this.#logCount, games.logCount],
      ['plies', this.#plies, games.plies],
      ['logStates', this.#logStates, games.logStates],
      ['logPolicies', this.#logPolicies, games.logPolicies],
      ['logValues', this.#logValues, games.logValues],
      ['logBounds', this.#logBounds, games.logBounds],
    ] as const) {
      if (to.length !== from.length) {
        throw new RangeError(
          `games in progress: ${name} has ${from.length} entries, expected ${to.length}`,
        );
      }
      to.set(from);
    }
    for (let g = 0; g < this.#n; g++) {
      this.#searches.reset(g);
      this.#searches.stop(g);
    }
  }

  /**
   * Plays until `moves` searched moves have been made in all, putting the
   * positions of the games that end into `sink`, and on past `moves` until
   * at least one game has ended (so that an update always has data). Games
   * still going on carry on at the next call.
   */
  collect(moves: number, sink: PositionSink, rng: Random): SearchSelfPlayStats {
    const start = performance.now();
    const evaluationsBefore = this.evaluations;
    const stats = emptySearchStats();
    let finishedPlies = 0;
    // A search interrupted by the end of the last call starts again from its root.
    for (let g = 0; g < this.#n; g++) this.#searches.stop(g);
    this.#rescoring?.clear();
    while (stats.plies < moves || stats.games === 0) {
      this.#evaluateLeaves(this.#selectLeaves(rng));
      for (let g = 0; g < this.#n; g++) {
        if (stats.plies >= moves && stats.games > 0) break;
        if (!this.#searches.searching(g) || !this.#searches.done(g)) continue;
        if (this.#move(g, rng)) stats.proven++;
        this.#searches.stop(g);
        stats.plies++;
        const ended = this.#gameEnd(g);
        if (ended === null) continue;
        stats.games++;
        finishedPlies += this.#plies[g] as number;
        stats.learnerSamples += this.#storeGame(g, ended, sink);
        this.#newGame(g, rng);
      }
    }
    stats.seconds = (performance.now() - start) / 1000;
    stats.meanGamePlies = stats.games > 0 ? finishedPlies / stats.games : 0;
    stats.evaluations = this.evaluations - evaluationsBefore;
    return stats;
  }

  #newGame(g: number, rng: Random): void {
    const state = this.#states.subarray(g * STATE_SIZE, (g + 1) * STATE_SIZE);
    this.openings.draw(state, rng);
    this.#logCount[g] = 0;
    this.#plies[g] = 0;
    this.#searches.stop(g);
    this.#searches.reset(g);
  }

  /**
   * Begins searches where none runs (the solver first, if any, proving what
   * it can of the position), then one simulation's leaf per game; returns
   * the rows to evaluate.
   */
  #selectLeaves(rng: Random): number {
    const searches = this.#searches;
    for (let g = 0; g < this.#n; g++) {
      if (searches.searching(g)) continue;
      const state = this.#states.subarray(g * STATE_SIZE, (g + 1) * STATE_SIZE);
      this.#rescoring?.prove(state, this.#proven[g] as ProvenMoves);
      searches.begin(g, state, this.#target.begin(g, this.options.simulations, rng));
    }
    return searches.selectLeaves();
  }

  /**
   * One forward pass for the step's rows; each search takes its priors and
   * value, in the games' order (a visit-count search draws its root noise then).
   */
  #evaluateLeaves(rows: number): void {
    const searches = this.#searches;
    if (rows > 0) {
      this.evaluations += rows;
      this.forward(searches.observations, rows, searches.logits, searches.values);
    }
    searches.completeLeaves();
  }

  /**
   * Plays game g's move; its position is logged first with the target's
   * policy and value (rescored by what the solver proved, if it ran).
   * Returns whether the position's value was proven.
   */
  #move(g: number, rng: Random): boolean {
    const state = this.#states.subarray(g * STATE_SIZE, (g + 1) * STATE_SIZE);
    const k = g * this.options.maxPlies + (this.#logCount[g] as number);
    this.#logStates.set(state, k * STATE_SIZE);
    const at = k * NUM_ACTIONS;
    const proven = this.#proven[g] as ProvenMoves;
    const move = this.#target.finish(g, this.#searches.result(g), this.#plies[g] as number, rng);
    for (let a = 0; a < NUM_ACTIONS; a++) this.#logPolicies[at + a] = move.policy[a] as number;
    this.#logValues[k] = move.value;
    if (this.#rescoring !== null) rescorePolicy(this.#logPolicies, at, proven);
    const action = move.action;
    const known = this.#rescoring !== null;
    this.#logBounds[2 * k] = known ? proven.lo : -1;
    this.#logBounds[2 * k + 1] = known ? proven.hi : 1;
    this.#logCount[g] = (this.#logCount[g] as number) + 1;
    this.#plies[g] = (this.#plies[g] as number) + 1;
    playInPlace(state, action, this.#ruleCode);
    return known && proven.lo === proven.hi;
  }

  /** Player 0's result (+1, 0, -1) if game `g` is over (a capped game is a draw), else null. */
  #gameEnd(g: number): number | null {
    const state = this.#states.subarray(g * STATE_SIZE, (g + 1) * STATE_SIZE);
    const mask = legalMask(state, this.#ruleCode);
    if (finalScores(state, mask, this.#ruleCode, this.#scores)) {
      return Math.sign((this.#scores[0] as number) - (this.#scores[1] as number));
    }
    const capped = (this.#plies[g] as number) >= this.options.maxPlies;
    return capped ? 0 : null;
  }

  /** Moves a finished game's positions into `sink` with each mover's value target; returns how many. */
  #storeGame(g: number, result0: number, sink: PositionSink): number {
    const w = this.options.searchValueWeight;
    const base = g * this.options.maxPlies;
    for (let i = 0; i < (this.#logCount[g] as number); i++) {
      const k = base + i;
      const state = this.#logStates.subarray(k * STATE_SIZE, (k + 1) * STATE_SIZE);
      const outcome = state[TO_MOVE] === 0 ? result0 : -result0;
      const mixed = (1 - w) * outcome + w * (this.#logValues[k] as number);
      const lo = this.#logBounds[2 * k] as number;
      const hi = this.#logBounds[2 * k + 1] as number;
      const value = provenValue(mixed, lo, hi);
      sink.add(state, this.#logPolicies, k * NUM_ACTIONS, value);
    }
    return this.#logCount[g] as number;
  }
}

/**
 * The WebAssembly search core (search-core.c) as JavaScript sees it: one
 * instance per SearchSelfPlay, its arrays as typed views over the instance's
 * memory (which never grows after `init`, so the views stay valid), and its
 * entry points. Expert iteration's self-play drives it
 * (train/expert-iteration/core-searches.ts).
 */

import {
  LAPS_FEATURE,
  type ObservationConfig,
  observationSize,
} from '../../../env/gym/observation.ts';
import { core } from '../../../env/index.ts';
import type { ResultTree } from '../result.ts';
import { meanValue } from '../tree.ts';
import { SEARCH_CORE_WASM } from './search-core-wasm.ts';

const { ACTIONS, STATE_SIZE } = core;

/** The boards the core's encoder (encoder.h) writes, always with lookahead over counts. */
export type CoreEncoding = 'counts' | 'thermometer';

/** The board of `observation` if the core's encoder writes it, else null. */
export function coreEncoding(observation: ObservationConfig): CoreEncoding | null {
  const { encoding, lookahead, lookaheadEncoding } = observation;
  if (!lookahead || lookaheadEncoding !== 'counts') return null;
  return encoding === 'counts' || encoding === 'thermometer' ? encoding : null;
}

/**
 * Bytes a node takes in the core: its tree's arrays (search-core.c's tree_t:
 * position, parent, action, prior, visits, value sum, first child, child
 * count, solved, exact value) and its evaluation's (evals_t: priors, value,
 * the previous tree's node).
 */
const CORE_NODE_BYTES = STATE_SIZE + 4 + 1 + 4 + 4 + 8 + 4 + 1 + 1 + 8 + ACTIONS * 4 + 8 + 4;

/**
 * The most nodes a search of `simulations` simulations after the root's
 * expansion holds: each expands at most one leaf's six children.
 */
export function coreTreeNodes(simulations: number): number {
  return 1 + ACTIONS * (simulations + 1);
}

/** The bytes of one game's two trees in the core (its search's and the last one's, with their evaluations). */
export function coreTreeBytes(simulations: number): number {
  return 2 * coreTreeNodes(simulations) * CORE_NODE_BYTES;
}

interface CoreExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  layout(): number;
  init(
    games: number,
    simulations: number,
    thermometer: number,
    rules: number,
    exploration: number,
    valueScale: number,
    gumbel: number,
  ): number;
  reset(game: number): void;
  begin(game: number): void;
  select_all(): number;
  step_rows(): number;
  step_encodes(): number;
  complete_all(leaves: number): number;
  init_engine(): void;
  opening_at(): number;
  opening_value(depth: number, rules: number): number;
  js_exp(x: number): number;
}

const ENTRY_POINTS = [
  'layout',
  'init',
  'reset',
  'begin',
  'select_all',
  'step_rows',
  'step_encodes',
  'complete_all',
  'init_engine',
  'opening_at',
  'opening_value',
  'js_exp',
] as const;

let compiled: WebAssembly.Module | null = null;

function coreExports(): CoreExports {
  compiled ??= new WebAssembly.Module(Buffer.from(SEARCH_CORE_WASM, 'base64'));
  const exports = new WebAssembly.Instance(compiled, {}).exports as Record<string, unknown>;
  const { memory } = exports;
  if (
    !(typeof memory === 'object' && memory !== null && 'buffer' in memory) ||
    ENTRY_POINTS.some((name) => typeof exports[name] !== 'function')
  ) {
    throw new Error('the search core lacks its exports: rebuild it (npm run build:search-core)');
  }
  return exports as unknown as CoreExports;
}

/** An instance of the core that searches nothing (it rates openings), and its position slot. */
interface ToolCore {
  readonly exports: CoreExports;
  readonly opening: Uint8Array;
}

let tools: ToolCore | null = null;

function toolCore(): ToolCore {
  if (tools === null) {
    const exports = coreExports();
    exports.init_engine();
    tools = {
      exports,
      opening: new Uint8Array(exports.memory.buffer, exports.opening_at(), STATE_SIZE),
    };
  }
  return tools;
}

/** The core's Math.exp (js-exp.h: V8's fdlibm exp in C), which its softmax of the network's logits uses. */
export function coreExp(x: number): number {
  return toolCore().exports.js_exp(x);
}

/** Deepest search `openingValue` runs (its recursion lives on the module's stack). */
const MAX_OPENING_DEPTH = 8;

/**
 * The depth-`depth` minimax value of `state` (not finished) for its player to
 * move under `ruleCode`: what MinimaxSearch's `search(state, { depth })`
 * returns as its value (opening-value.h), some ten times faster.
 */
export function openingValue(state: Uint8Array, depth: number, ruleCode: number): number {
  if (!(Number.isInteger(depth) && depth >= 1 && depth <= MAX_OPENING_DEPTH)) {
    throw new RangeError(
      `opening depth must be an integer in 1..${MAX_OPENING_DEPTH}, got ${depth}`,
    );
  }
  const rater = toolCore();
  rater.opening.set(state.subarray(0, STATE_SIZE));
  return rater.exports.opening_value(depth, ruleCode);
}

/**
 * The core's arrays in the order of search-core.c's layout table (its L_*
 * enum): `layout()` points at a table of where each starts. The leaves' masks,
 * priors and values are the core's alone.
 */
const LAYOUT = [
  'observations',
  'rootStates',
  'searching',
  'current',
  'root',
  'done',
  'evaluations',
  'rootRaw',
  'ready',
  'gumbel',
  'logits',
  'priors',
  'maxLogit',
  'sequences',
  'leafMask',
  'leafPriors',
  'leafValues',
  'stepGame',
  'stepRow',
  'trees',
  'laps',
  'stepEncoded',
  'finished',
  'netLogits',
  'netValues',
] as const;

/** Pointers a tree has in the layout's `trees` table (search-core.c's TREE_FIELDS), two trees a game. */
const TREE_FIELDS = 10;

/** What the core is asked to search. */
export interface SearchCoreOptions {
  readonly games: number;
  /** Simulations after the root's expansion. */
  readonly simulations: number;
  readonly encoding: CoreEncoding;
  readonly ruleCode: number;
  /** PUCT's c below the root (and at it without Gumbel). */
  readonly exploration: number;
  /** c_scale of sigma(completed Q) at a Gumbel root. */
  readonly valueScale: number;
  /** Whether Gumbel's Sequential Halving picks the root's actions (else PUCT with root noise). */
  readonly gumbel: boolean;
}

/** One of a game's two trees, as agents/puct/result.ts reads a tree. */
class CoreTree implements ResultTree {
  constructor(
    readonly action: Int8Array<ArrayBuffer>,
    readonly prior: Float32Array<ArrayBuffer>,
    readonly visits: Int32Array<ArrayBuffer>,
    readonly valueSum: Float64Array<ArrayBuffer>,
    readonly firstChild: Int32Array<ArrayBuffer>,
    readonly childCount: Uint8Array<ArrayBuffer>,
    readonly solved: Uint8Array<ArrayBuffer>,
    readonly exact: Float64Array<ArrayBuffer>,
  ) {}

  meanValue(c: number): number {
    return meanValue(this, c);
  }
}

/** The core's arrays (search-core.c's layout, in its order) and its entry points. */
export class SearchCore {
  /**
   * Called after each `selectAll` with the positions the core encoded
   * (`count` positions of STATE_SIZE bytes at the start of `states`): a
   * benchmark's view of the encoder's work, done out of TypeScript's sight.
   */
  static watchEncodes: ((states: Uint8Array, count: number) => void) | null = null;
  readonly observationSize: number;
  /** The step's rows, `observationSize` floats each: the network's input. */
  readonly observations: Float32Array;
  /** Per game, STATE_SIZE bytes: the position the next `begin` searches. */
  readonly rootStates: Uint8Array;
  /** Per game, 1 while its search runs (set by `begin`). */
  readonly searching: Uint8Array;
  /** Per game, 1 once its search has run its simulations (one is enough once the root is proven). */
  readonly finished: Uint8Array;
  /** Per game, which of its two trees is the current search's (0 or 1). */
  readonly current: Int32Array;
  readonly root: Int32Array;
  /** Per game, simulations done since `begin`. */
  readonly done: Int32Array;
  /** Per game, leaves completed since `begin`. */
  readonly evaluations: Int32Array;
  /** Per game, the root's value as evaluated, for the player to move. */
  readonly rootRaw: Float64Array;
  /** Per game, 1 once `completeAll` has expanded its root (JavaScript clears it). */
  readonly ready: Uint8Array;
  /** Per game, ACTIONS each: the Gumbel noise, the root's logits and their softmax. */
  readonly gumbel: Float64Array;
  readonly logits: Float64Array;
  readonly priors: Float64Array;
  readonly maxLogit: Float64Array;
  /** Sequential Halving's schedules, `simulations` a count of legal root actions (1 to 6). */
  readonly sequences: Int32Array;
  /** The network's outputs for the step's rows, 6 logits and a value a row: the network writes them here. */
  readonly netLogits: Float32Array;
  readonly netValues: Float32Array;
  /** Per leaf of the step, in the games' order: its game, and its row (-1: recalled). */
  readonly stepGame: Int32Array;
  readonly stepRow: Int32Array;
  /** The positions the last `selectAll` encoded, STATE_SIZE bytes each (`stepEncodes` of them). */
  readonly stepEncoded: Uint8Array;
  /** Per game, its two trees. */
  readonly trees: readonly (readonly [ResultTree, ResultTree])[];
  readonly #exports: CoreExports;

  constructor(readonly options: SearchCoreOptions) {
    const exports = coreExports();
    const { games, simulations } = options;
    const status = exports.init(
      games,
      simulations,
      options.encoding === 'thermometer' ? 1 : 0,
      options.ruleCode,
      options.exploration,
      options.valueScale,
      options.gumbel ? 1 : 0,
    );
    if (status !== 0) throw new Error(`the search core has no memory for ${games} games`);
    const { buffer } = exports.memory;
    const layout = new Int32Array(buffer, exports.layout(), LAYOUT.length);
    const at = (name: (typeof LAYOUT)[number]): number => layout[LAYOUT.indexOf(name)] as number;
    this.observationSize = observationSize({
      encoding: options.encoding,
      lookahead: true,
      lookaheadEncoding: 'counts',
    });
    this.observations = new Float32Array(buffer, at('observations'), games * this.observationSize);
    this.rootStates = new Uint8Array(buffer, at('rootStates'), games * STATE_SIZE);
    this.searching = new Uint8Array(buffer, at('searching'), games);
    this.current = new Int32Array(buffer, at('current'), games);
    this.root = new Int32Array(buffer, at('root'), games);
    this.done = new Int32Array(buffer, at('done'), games);
    this.evaluations = new Int32Array(buffer, at('evaluations'), games);
    this.rootRaw = new Float64Array(buffer, at('rootRaw'), games);
    this.ready = new Uint8Array(buffer, at('ready'), games);
    this.gumbel = new Float64Array(buffer, at('gumbel'), games * ACTIONS);
    this.logits = new Float64Array(buffer, at('logits'), games * ACTIONS);
    this.priors = new Float64Array(buffer, at('priors'), games * ACTIONS);
    this.maxLogit = new Float64Array(buffer, at('maxLogit'), games);
    this.sequences = new Int32Array(buffer, at('sequences'), ACTIONS * simulations);
    this.stepGame = new Int32Array(buffer, at('stepGame'), games);
    this.stepRow = new Int32Array(buffer, at('stepRow'), games);
    this.stepEncoded = new Uint8Array(buffer, at('stepEncoded'), games * STATE_SIZE);
    this.finished = new Uint8Array(buffer, at('finished'), games);
    this.netLogits = new Float32Array(buffer, at('netLogits'), games * ACTIONS);
    this.netValues = new Float32Array(buffer, at('netValues'), games);
    const lapsFeature = new Float32Array(buffer, at('laps'), LAPS_FEATURE.length);
    lapsFeature.set(LAPS_FEATURE);
    const capacity = coreTreeNodes(simulations);
    const fields = new Int32Array(buffer, at('trees'), games * 2 * TREE_FIELDS);
    const tree = (k: number): CoreTree => {
      const f = (i: number): number => fields[k * TREE_FIELDS + i] as number;
      // Fields 0 and 1 (positions, parents) are the core's alone.
      return new CoreTree(
        new Int8Array(buffer, f(2), capacity),
        new Float32Array(buffer, f(3), capacity),
        new Int32Array(buffer, f(4), capacity),
        new Float64Array(buffer, f(5), capacity),
        new Int32Array(buffer, f(6), capacity),
        new Uint8Array(buffer, f(7), capacity),
        new Uint8Array(buffer, f(8), capacity),
        new Float64Array(buffer, f(9), capacity),
      );
    };
    this.trees = Array.from({ length: games }, (_, g) => [tree(2 * g), tree(2 * g + 1)] as const);
    this.#exports = exports;
  }

  /** Game g's current tree. */
  tree(g: number): ResultTree {
    return (this.trees[g] as readonly [ResultTree, ResultTree])[
      this.current[g] as number
    ] as ResultTree;
  }

  reset(g: number): void {
    this.#exports.reset(g);
  }

  /** Begins game g's search of `rootStates[g]`. */
  begin(g: number): void {
    this.#exports.begin(g);
  }

  /** One simulation per searching game whose search is not done; returns the leaves waiting. */
  selectAll(): number {
    const leaves = this.#exports.select_all();
    if (leaves < 0) throw new RangeError('cannot search a finished game');
    SearchCore.watchEncodes?.(this.stepEncoded, this.#exports.step_encodes());
    return leaves;
  }

  /** The rows the last `selectAll` wrote. */
  stepRows(): number {
    return this.#exports.step_rows();
  }

  /** Expands and backs up the last step's `leaves` leaves, with the network's outputs in `netLogits` and `netValues`. */
  completeAll(leaves: number): void {
    if (this.#exports.complete_all(leaves) < 0) {
      throw new RangeError('cannot search a finished game');
    }
  }
}

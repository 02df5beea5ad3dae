import { core, type Random, sampleGumbel } from '../../env/index.ts';
import {
  type CompletedQOptions,
  completedQPolicy,
  legalSoftmax,
  type RootStatistics,
  transformedCompletedQ,
} from '../search-targets.ts';
import type { PuctResult } from './result.ts';
import type { RootChooser, RootChooserSearch, RootView } from './root-chooser.ts';

const { ACTIONS, POPCOUNT } = core;

/**
 * The visit count Sequential Halving considers at each simulation (mctx's
 * `get_sequence_of_considered_visits`): each simulation goes to the best-scored
 * action among those visited exactly that often. With m actions considered and
 * n simulations, each of ceil(log2 m) phases gives every remaining action
 * max(1, floor(n / (ceil(log2 m) x remaining))) visits, then halves the
 * remaining actions (never below 2).
 */
export function consideredVisitSequence(maxConsidered: number, simulations: number): number[] {
  if (!(Number.isInteger(simulations) && simulations >= 0)) {
    throw new RangeError(`simulations must be an integer >= 0, got ${simulations}`);
  }
  if (maxConsidered <= 1) return Array.from({ length: simulations }, (_, i) => i);
  const log2max = Math.ceil(Math.log2(maxConsidered));
  const sequence: number[] = [];
  const visits = new Array<number>(maxConsidered).fill(0);
  let considered = maxConsidered;
  while (sequence.length < simulations) {
    const extra = Math.max(1, Math.floor(simulations / (log2max * considered)));
    for (let e = 0; e < extra; e++) {
      sequence.push(...visits.slice(0, considered));
      for (let i = 0; i < considered; i++) visits[i] = (visits[i] as number) + 1;
    }
    considered = Math.max(2, Math.floor(considered / 2));
  }
  return sequence.slice(0, simulations);
}

// A run's searches all share a handful of (considered, simulations) pairs.
const sequences = new Map<number, readonly number[]>();

/** consideredVisitSequence, made once for each pair (a search reads it, never writes it). */
function visitSequence(maxConsidered: number, simulations: number): readonly number[] {
  const key = maxConsidered * 4096 + simulations;
  let sequence = sequences.get(key);
  if (sequence === undefined) {
    sequence = consideredVisitSequence(maxConsidered, simulations);
    sequences.set(key, sequence);
  }
  return sequence;
}

export interface GumbelOptions extends CompletedQOptions {
  /** Simulations after the root's evaluation (mctx's num_simulations); at least 1. */
  readonly simulations: number;
  /** Root actions sampled without replacement by Gumbel-top-k (default 16: all six). */
  readonly maxConsidered?: number;
  /** Scale of the Gumbel noise (default 1; 0: deterministic, for evaluation). */
  readonly gumbelScale?: number;
}

export interface GumbelResult {
  /** The action to play: the best survivor of Sequential Halving (a proven best if the root is solved). */
  readonly action: number;
  /** The improved policy softmax(logits + sigma(completed Q)): the training target. */
  readonly policy: Float64Array;
  /** The Gumbel noise drawn for each action (0 for illegal ones). */
  readonly gumbel: Float64Array;
  /** The underlying search's result (visits, Q, raw value, proof). */
  readonly search: PuctResult;
}

/** Root logits from the search's priors: log p, up to a constant (softmax is unchanged by it). */
function logitsOf(priors: ArrayLike<number>, legalMask: number, out: Float64Array): Float64Array {
  for (let a = 0; a < ACTIONS; a++) {
    out[a] = legalMask & (1 << a) ? Math.log(Math.max(priors[a] as number, Number.MIN_VALUE)) : 0;
  }
  return out;
}

// bestConsidered runs every simulation of a root search: its sigma needs no array of its own.
const sigmaScratch = new Float64Array(ACTIONS);

/** The largest of the legal actions' logits. */
function maxLegalLogit(root: Pick<RootStatistics, 'legalMask' | 'logits'>): number {
  let maxLogit = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < ACTIONS; a++) {
    if (root.legalMask & (1 << a)) maxLogit = Math.max(maxLogit, root.logits[a] as number);
  }
  return maxLogit;
}

/**
 * What Sequential Halving reads of an expanded root's priors, fixed for the
 * rest of its search: their logs into `logits`, the logs' softmax over the
 * legal actions into `softmax`; returns the largest legal logit. Computed
 * once a search, by the chooser here and by the WebAssembly search core's
 * driver (train/expert-iteration/core-searches.ts).
 */
export function rootLogits(
  priors: ArrayLike<number>,
  legalMask: number,
  logits: Float64Array,
  softmax: Float64Array,
): number {
  logitsOf(priors, legalMask, logits);
  legalSoftmax(logits, legalMask, softmax);
  return maxLegalLogit({ legalMask, logits });
}

/**
 * mctx's `score_considered`: g + (logits - max logits) + sigma(completed Q),
 * floored at -1e9, for the legal actions visited exactly `considered` times;
 * returns the best (the lowest action on a tie), or -1 if none qualifies.
 * `priors` (the logits' softmax) and `maxLogit`, when a root search has them
 * from its first simulation.
 */
function bestConsidered(
  root: RootStatistics,
  gumbel: Float64Array,
  considered: number,
  options: CompletedQOptions,
  priors?: ArrayLike<number>,
  maxLogit = maxLegalLogit(root),
): number {
  const sigma = transformedCompletedQ(root, options, sigmaScratch, priors);
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let a = 0; a < ACTIONS; a++) {
    if ((root.legalMask & (1 << a)) === 0 || root.visits[a] !== considered) continue;
    const score = Math.max(
      -1e9,
      (gumbel[a] as number) + (root.logits[a] as number) - maxLogit + (sigma[a] as number),
    );
    if (score > bestScore) {
      bestScore = score;
      best = a;
    }
  }
  return best;
}

/**
 * Gumbel MuZero's root search (Danihelka et al. 2022, as mctx's
 * `gumbel_muzero_policy`) for one root: Gumbel noise g(a) drawn from `rng`
 * when constructed, the top m = min(maxConsidered, legal) actions by
 * g + logits visited first, then Sequential Halving by
 * g + logits + sigma(completed Q) over the simulation budget; below the root
 * the search selects by PUCT. Give a PuctSearch `chooser` as its root chooser
 * (the plug of agents/puct/root-chooser.ts)
 * for `totalSimulations` simulations (the root's expansion and `simulations`
 * more), then `finish` its result. `gumbelSearch` does all of it for one
 * position; a self-play driver steps many of them at once.
 */
export class GumbelRoot {
  readonly simulations: number;
  /** Simulations to ask of the PuctSearch: the root's expansion, then `simulations`. */
  readonly totalSimulations: number;
  readonly #options: GumbelOptions;
  readonly #gumbel = new Float64Array(ACTIONS);
  #chooser: RootChooser | null = null;

  constructor(options: GumbelOptions, rng: Random) {
    const { simulations, maxConsidered = 16, gumbelScale = 1 } = options;
    if (!(Number.isInteger(simulations) && simulations >= 1)) {
      throw new RangeError(
        `Gumbel search simulations must be a positive integer, got ${simulations}`,
      );
    }
    if (!(Number.isInteger(maxConsidered) && maxConsidered >= 1)) {
      throw new RangeError(`maxConsidered must be a positive integer, got ${maxConsidered}`);
    }
    if (!(gumbelScale >= 0 && Number.isFinite(gumbelScale))) {
      throw new RangeError(`gumbelScale must be a finite number >= 0, got ${gumbelScale}`);
    }
    this.simulations = simulations;
    this.totalSimulations = simulations + 1;
    this.#options = options;
    const gumbel = this.#gumbel;
    for (let a = 0; a < ACTIONS; a++) gumbel[a] = gumbelScale * sampleGumbel(rng);
  }

  /**
   * The root chooser to give the PuctSearch, made at first use (the self-play
   * search core runs Sequential Halving itself and reads only `noise`).
   */
  get chooser(): RootChooser {
    this.#chooser ??= this.#makeChooser();
    return this.#chooser;
  }

  #makeChooser(): RootChooser {
    const { simulations } = this;
    const options = this.#options;
    const { maxConsidered = 16 } = options;
    const gumbel = this.#gumbel;
    const logits = new Float64Array(ACTIONS);
    const priors = new Float64Array(ACTIONS);
    let maxLogit = 0;
    let sequence: readonly number[] | null = null;
    // The view's fields as the completed-Q transform reads them, refreshed each call (no allocation).
    const root: { -readonly [K in keyof RootStatistics]: RootStatistics[K] } = {
      legalMask: 0,
      logits,
      visits: logits,
      q: logits,
      rawValue: 0,
    };
    return (view: RootView): number => {
      root.legalMask = view.legalMask;
      root.visits = view.visits;
      root.q = view.q;
      root.rawValue = view.rawValue;
      if (sequence === null) {
        const legal = POPCOUNT[view.legalMask] as number;
        sequence = visitSequence(Math.min(maxConsidered, legal), simulations);
        // The root's priors are fixed once it is expanded: their logs, the logs'
        // softmax and largest value once a search.
        maxLogit = rootLogits(view.priors, view.legalMask, logits, priors);
      }
      const considered = sequence[view.simulation] as number;
      const best = bestConsidered(root, gumbel, considered, options, priors, maxLogit);
      // Every simulation after the root's expansion visits the chosen child once, so the
      // schedule's count is always met; the least visited stand in should that ever change.
      return best >= 0
        ? best
        : bestConsidered(root, gumbel, minVisits(view), options, priors, maxLogit);
    };
  }

  /** The Gumbel noise drawn for each action (scaled; read only). */
  get noise(): Float64Array {
    return this.#gumbel;
  }

  /** The action to play and the improved policy, from the finished search's result. */
  finish(result: PuctResult): GumbelResult {
    const gumbel = this.#gumbel.slice();
    const legalMask = result.legalMask;
    for (let a = 0; a < ACTIONS; a++) if ((legalMask & (1 << a)) === 0) gumbel[a] = 0;
    const root: RootStatistics = {
      legalMask,
      logits: logitsOf(result.priors, legalMask, new Float64Array(ACTIONS)),
      visits: result.visits,
      q: result.q,
      rawValue: result.rawValue,
    };
    let mostVisits = 0;
    for (let a = 0; a < ACTIONS; a++) mostVisits = Math.max(mostVisits, result.visits[a] as number);
    const action = result.solved
      ? (result.bestActions[0] as number)
      : bestConsidered(root, gumbel, mostVisits, this.#options);
    return { action, policy: completedQPolicy(root, this.#options), gumbel, search: result };
  }
}

/**
 * One Gumbel root search of `state` (see GumbelRoot). The root's logits are
 * the logs of the search's priors: give the PuctSearch `priorWeight: 1` for
 * the network's own. Works with a handful of simulations (each phase is at
 * least one visit a remaining action), and the improved policy it returns is a
 * training target that improves on the prior whatever the budget. The same
 * seed gives the same result; any tree kept for reuse is dropped first (the
 * noise belongs to a fresh root).
 */
export function gumbelSearch(
  search: RootChooserSearch,
  state: Uint8Array,
  options: GumbelOptions,
  rng: Random,
): GumbelResult {
  const root = new GumbelRoot(options, rng);
  search.reset();
  const result = search.search(state, { simulations: root.totalSimulations }, null, root.chooser);
  return root.finish(result);
}

function minVisits(view: RootView): number {
  let least = Number.POSITIVE_INFINITY;
  for (let a = 0; a < ACTIONS; a++) {
    if (view.legalMask & (1 << a)) least = Math.min(least, view.visits[a] as number);
  }
  return least;
}

import { openingValue } from '../agents/puct/core/search-core.ts';
import {
  applyAction,
  initialPosition,
  legalActions,
  type Position,
  Random,
  type RuleCode,
  type Rules,
  ruleCode,
  rulesKey,
} from '../env/index.ts';
import { stateKey } from '../solve/book/plan.ts';

/** A seeded opening: random plies from the start, played before the agents take over. */
export interface Opening {
  /** Which opening of the seed's sequence. */
  readonly index: number;
  readonly moves: readonly number[];
  readonly position: Position;
}

/** Random plies before the agents play, by default: enough for a few hundred distinct openings. */
export const DEFAULT_OPENING_PLIES = 4;
/** Largest advantage (seeds, by a depth-4 search) an opening may give the player to move. */
export const MAX_OPENING_IMBALANCE = 4;
const BALANCE_DEPTH = 4;

/**
 * Whether a quick search rates the position as close: random plies often hand
 * one side a big capture (after 4 plies the stores can already read 7-24), and
 * such an opening decides the game whoever plays it, which only adds noise.
 */
function balanced(position: Position, rules: Rules): boolean {
  return isBalancedState(position.toState(), rules);
}

/**
 * Per rules key, the rule code the depth-4 search rates openings under and
 * what it found of each position (by stateKey). Self-play draws an opening of
 * 0-8 random plies for each game, two a game on average with the redraws, and
 * most were met before (6 in 10 over 20 000 games). The search is the search
 * core's (openingValue, MinimaxSearch's value in WebAssembly). Cleared when full.
 */
interface BalanceRater {
  readonly code: RuleCode;
  readonly known: Map<string, boolean>;
}
const balanceRaters = new Map<string, BalanceRater>();
// The rater of a rules object met before, without spelling its key again (a call a drawn opening).
const ratersOf = new WeakMap<Rules, BalanceRater>();
const KNOWN_POSITIONS = 1 << 17;

function balanceRater(rules: Rules): BalanceRater {
  const met = ratersOf.get(rules);
  if (met !== undefined) return met;
  const key = rulesKey(rules);
  let rater = balanceRaters.get(key);
  if (rater === undefined) {
    rater = { code: ruleCode(rules), known: new Map() };
    balanceRaters.set(key, rater);
  }
  ratersOf.set(rules, rater);
  return rater;
}

/** `balanced` on an engine state (16 bytes); also used for training openings. */
export function isBalancedState(state: Uint8Array, rules: Rules): boolean {
  const rater = balanceRater(rules);
  const position = stateKey(state);
  const known = rater.known.get(position);
  if (known !== undefined) return known;
  const value = openingValue(state, BALANCE_DEPTH, rater.code);
  const balanced = Math.abs(value) <= MAX_OPENING_IMBALANCE;
  if (rater.known.size >= KNOWN_POSITIONS) rater.known.clear();
  rater.known.set(position, balanced);
  return balanced;
}

const cache = new Map<string, Opening>();

/**
 * Opening `index` of a seed: `plies` uniformly random legal plies from the start,
 * drawn again until the position is balanced (a depth-4 search rates it within
 * 4 seeds either way) and the game goes on. Every pairing of a tournament
 * and both seat orders of a pairing use the same openings, so that
 * deterministic agents do not replay one game and neither seat is favoured.
 */
export function openingFor(seed: number, index: number, plies: number, rules: Rules): Opening {
  if (!Number.isInteger(plies) || plies < 0 || plies > 40) {
    throw new RangeError(`opening plies must be an integer in 0..40, got ${plies}`);
  }
  const key = `${seed}|${index}|${plies}|${rulesKey(rules)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const rng = Random.fromSeed(`${seed}|opening|${index}`);
  for (;;) {
    let position = initialPosition();
    const moves: number[] = [];
    while (moves.length < plies) {
      const legal = legalActions(position, rules);
      if (legal.length === 0) break;
      const action = rng.pick(legal);
      moves.push(action);
      position = applyAction(position, action, rules);
    }
    if (
      moves.length === plies &&
      legalActions(position, rules).length > 0 &&
      (plies === 0 || balanced(position, rules))
    ) {
      const opening: Opening = { index, moves, position };
      if (cache.size > 10_000) cache.clear();
      cache.set(key, opening);
      return opening;
    }
  }
}

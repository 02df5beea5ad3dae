/**
 * Observation encoders: the position as a Float32Array from the side of the
 * player to move, plus (optionally) engine-computed lookahead features of each
 * action. The README section "The environment" documents every feature; a
 * client in another language must be able to recompute them from it, because
 * trained policies are exported together with these features.
 */
import * as z from 'zod';
import {
  core,
  describeIssues,
  type RuleCode,
  type Rules,
  type RulesInput,
  resolveRules,
  ruleCode,
} from '../index.ts';
import { finalDifference, hasLegalMove } from './fast.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, ActionStats, expand, hasWinningStore } = core;

export const ENCODINGS = ['counts', 'onehot', 'thermometer'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const observationConfigSchema = z
  .object({
    encoding: z
      .enum(ENCODINGS)
      .default('counts')
      .describe(
        'per-pit encoding: counts (seeds/12), onehot (13 buckets) or thermometer (12 levels)',
      ),
    lookahead: z
      .boolean()
      .default(false)
      .describe(
        'add engine-computed features of the position each of the 6 actions leads to (22 each with counts pits)',
      ),
    lookaheadEncoding: z
      .enum(ENCODINGS)
      .default('counts')
      .describe(
        "per-pit encoding of the board after each action in the lookahead's features: counts, onehot or thermometer",
      ),
  })
  .strict();

/** A complete observation config (every field present). */
export type ObservationConfig = z.output<typeof observationConfigSchema>;
/** What callers may pass: any subset of the fields; the rest take their defaults. */
export type ObservationConfigInput = z.input<typeof observationConfigSchema>;

export const DEFAULT_OBSERVATION: ObservationConfig = Object.freeze({
  encoding: 'counts',
  lookahead: false,
  lookaheadEncoding: 'counts',
});

export class ObservationConfigError extends Error {
  override name = 'ObservationConfigError';
}

/** Fills in defaults and validates; throws ObservationConfigError naming the bad field. */
export function resolveObservationConfig(input?: ObservationConfigInput | null): ObservationConfig {
  if (input === undefined || input === null) return DEFAULT_OBSERVATION;
  const parsed = observationConfigSchema.safeParse(input);
  if (!parsed.success) {
    throw new ObservationConfigError(
      `invalid observation config: ${describeIssues(parsed.error, 'observation')}`,
    );
  }
  return parsed.data;
}

/** Scales, shared with the README and with exported policies. */
export const PIT_SCALE = 12;
export const STORE_SCALE = 24;
export const LAPS_LOG2_SCALE = 8;
/** One-hot buckets per pit: exactly 0..11 seeds, then 12 or more. */
export const ONEHOT_BUCKETS = 13;
/** Thermometer levels per pit: seeds >= 1, ..., seeds >= 12. */
export const THERMOMETER_LEVELS = 12;
/** Lookahead features per action besides the board after it: eight before it, the two stores after. */
const LOOKAHEAD_SCALARS = 10;
/** Lookahead features per action with the board after it as counts, 22 (see `describeFeatures`). */
export const LOOKAHEAD_FEATURES = LOOKAHEAD_SCALARS + 12;

// Features from tables rather than arithmetic in the hot loop (a division or a
// Math.log2 call each); the tables hold exactly the values the arithmetic gives.

/** PIT_FEATURE[n] = n / PIT_SCALE, for the 0..48 seeds a pit can hold. */
const PIT_FEATURE = Float64Array.from({ length: 49 }, (_, n) => n / PIT_SCALE);
/** STORE_FEATURE[48 + n] = n / STORE_SCALE, for seed counts and differences -48..48. */
const STORE_FEATURE = Float64Array.from({ length: 97 }, (_, i) => (i - 48) / STORE_SCALE);

/**
 * LAPS_FEATURE[n] = min(1, log2(1 + n) / 8), the laps feature of an n-lap move,
 * for n < 255; from 255 laps on it is 1.
 */
export const LAPS_FEATURE = Float64Array.from({ length: 255 }, (_, n) =>
  Math.min(Math.log2(1 + n) / LAPS_LOG2_SCALE, 1),
);

/**
 * Writes the counts features of the mover's row (pits own..own+5 of the state
 * at `s[at ..]`) then the opponent's (opp..opp+5) into `out[to .. to + 11]`.
 * Straight-line rather than a loop, which would recheck the arrays on every pit.
 */
function writeCountsPits(
  out: Float32Array,
  to: number,
  s: Uint8Array,
  at: number,
  own: number,
  opp: number,
): void {
  const f = PIT_FEATURE;
  const o = at + own;
  const p = at + opp;
  out[to] = f[s[o] as number] as number;
  out[to + 1] = f[s[o + 1] as number] as number;
  out[to + 2] = f[s[o + 2] as number] as number;
  out[to + 3] = f[s[o + 3] as number] as number;
  out[to + 4] = f[s[o + 4] as number] as number;
  out[to + 5] = f[s[o + 5] as number] as number;
  out[to + 6] = f[s[p] as number] as number;
  out[to + 7] = f[s[p + 1] as number] as number;
  out[to + 8] = f[s[p + 2] as number] as number;
  out[to + 9] = f[s[p + 3] as number] as number;
  out[to + 10] = f[s[p + 4] as number] as number;
  out[to + 11] = f[s[p + 5] as number] as number;
}

/**
 * THERMOMETER_FEATURE[n * 12 .. n * 12 + 11]: the 12 levels of a pit of n
 * seeds (1 for seeds >= 1 .. >= 12, else 0), for the 0..48 seeds a pit can hold.
 */
const THERMOMETER_FEATURE = Float32Array.from({ length: 49 * THERMOMETER_LEVELS }, (_, i) =>
  Math.floor(i / THERMOMETER_LEVELS) > i % THERMOMETER_LEVELS ? 1 : 0,
);

/**
 * Writes one pit's 12 thermometer levels, copied from the table row of its
 * seeds: straight-line, with no branch on the count (a loop of `seeds`
 * stores mispredicts on nearly every pit).
 */
function writeThermometerPit(out: Float32Array, to: number, seeds: number): void {
  const t = THERMOMETER_FEATURE;
  const from = seeds * THERMOMETER_LEVELS;
  out[to] = t[from] as number;
  out[to + 1] = t[from + 1] as number;
  out[to + 2] = t[from + 2] as number;
  out[to + 3] = t[from + 3] as number;
  out[to + 4] = t[from + 4] as number;
  out[to + 5] = t[from + 5] as number;
  out[to + 6] = t[from + 6] as number;
  out[to + 7] = t[from + 7] as number;
  out[to + 8] = t[from + 8] as number;
  out[to + 9] = t[from + 9] as number;
  out[to + 10] = t[from + 10] as number;
  out[to + 11] = t[from + 11] as number;
}

/**
 * Writes the pits of the state at `s[at ..]` in a bucketed encoding (onehot:
 * 13 buckets a pit, thermometer: 12 levels), the mover's row (own..own+5)
 * then the opponent's (opp..opp+5), into `out[to .. to + 12 * width)`.
 */
function writeBucketedPits(
  out: Float32Array,
  to: number,
  s: Uint8Array,
  at: number,
  own: number,
  opp: number,
  onehot: boolean,
): void {
  if (!onehot) {
    const o = at + own;
    const p = at + opp;
    for (let k = 0; k < 6; k++) {
      writeThermometerPit(out, to + k * THERMOMETER_LEVELS, s[o + k] as number);
    }
    for (let k = 0; k < 6; k++) {
      writeThermometerPit(out, to + (6 + k) * THERMOMETER_LEVELS, s[p + k] as number);
    }
    return;
  }
  out.fill(0, to, to + 12 * ONEHOT_BUCKETS);
  for (let k = 0; k < 12; k++) {
    const seeds = s[at + (k < 6 ? own + k : opp + k - 6)] as number;
    out[to + k * ONEHOT_BUCKETS + Math.min(seeds, ONEHOT_BUCKETS - 1)] = 1;
  }
}

/** Offsets inside one action's lookahead block. */
const LA_LEGAL = 0;
const LA_CAPTURE = 1;
const LA_LAPS = 2;
const LA_ENDS = 3;
const LA_RESULT = 4;
const LA_OPP_CAPTURE = 5;
const LA_OPP_CAN_WIN = 6;
const LA_VALUE2 = 7;
const LA_PITS = 8;
// The two stores after the move follow the pits: at blockSize - 2 and - 1.

function perPit(encoding: Encoding): number {
  return encoding === 'counts' ? 1 : encoding === 'onehot' ? ONEHOT_BUCKETS : THERMOMETER_LEVELS;
}

function baseSize(encoding: Encoding): number {
  return 12 * perPit(encoding) + 2;
}

/** Features of one action's lookahead block: 22 with counts pits, 154 with the thermometer. */
export function lookaheadBlockSize(lookaheadEncoding: Encoding): number {
  return LOOKAHEAD_SCALARS + 12 * perPit(lookaheadEncoding);
}

/** Number of floats in one observation for this config. */
export function observationSize(cfg?: ObservationConfigInput | null): number {
  const c = resolveObservationConfig(cfg);
  return (
    baseSize(c.encoding) + (c.lookahead ? ACTIONS * lookaheadBlockSize(c.lookaheadEncoding) : 0)
  );
}

/** One observation feature: its name, how it is computed and scaled, and its bounds. */
export interface FeatureDescription {
  readonly name: string;
  readonly scaling: string;
  readonly low: number;
  readonly high: number;
}

/** Every feature of the observation, in order (index i describes observation[i]). */
export function describeFeatures(cfg?: ObservationConfigInput | null): FeatureDescription[] {
  const c = resolveObservationConfig(cfg);
  const out: FeatureDescription[] = [];
  // One row's pits in `encoding`; `when` prefixes the text of the lookahead's.
  const pitFeatures = (encoding: Encoding, prefix: string, whose: string, when = ''): void => {
    for (let k = 0; k < 6; k++) {
      const pit = `${prefix}_${k}`;
      const what = `${when}seeds in ${whose} pit of action ${k}`;
      if (encoding === 'counts') {
        out.push({ name: pit, scaling: `${what} / ${PIT_SCALE}`, low: 0, high: 48 / PIT_SCALE });
      } else if (encoding === 'onehot') {
        for (let b = 0; b < ONEHOT_BUCKETS - 1; b++) {
          out.push({
            name: `${pit}_eq_${b}`,
            scaling: `1 if ${what} == ${b} else 0`,
            low: 0,
            high: 1,
          });
        }
        out.push({
          name: `${pit}_ge_${ONEHOT_BUCKETS - 1}`,
          scaling: `1 if ${what} >= ${ONEHOT_BUCKETS - 1} else 0`,
          low: 0,
          high: 1,
        });
      } else {
        for (let b = 1; b <= THERMOMETER_LEVELS; b++) {
          out.push({
            name: `${pit}_ge_${b}`,
            scaling: `1 if ${what} >= ${b} else 0`,
            low: 0,
            high: 1,
          });
        }
      }
    }
  };
  pitFeatures(c.encoding, 'own_pit', "the mover's");
  pitFeatures(c.encoding, 'opp_pit', "the opponent's");
  out.push({
    name: 'own_store',
    scaling: `seeds in the mover's store / ${STORE_SCALE}`,
    low: 0,
    high: 48 / STORE_SCALE,
  });
  out.push({
    name: 'opp_store',
    scaling: `seeds in the opponent's store / ${STORE_SCALE}`,
    low: 0,
    high: 48 / STORE_SCALE,
  });
  if (!c.lookahead) return out;
  for (let a = 0; a < ACTIONS; a++) {
    const p = `la${a}`;
    const zero = `all ${lookaheadBlockSize(c.lookaheadEncoding)} features of an illegal action are 0`;
    out.push({ name: `${p}_legal`, scaling: `1 if action ${a} is legal else 0`, low: 0, high: 1 });
    out.push({
      name: `${p}_capture`,
      scaling: `seeds the move puts in the mover's store / ${STORE_SCALE}; ${zero}`,
      low: 0,
      high: 48 / STORE_SCALE,
    });
    out.push({
      name: `${p}_laps`,
      scaling: `min(1, log2(1 + laps) / ${LAPS_LOG2_SCALE}), laps = 1 + relays`,
      low: 0,
      high: 1,
    });
    out.push({
      name: `${p}_ends`,
      scaling: '1 if the game is over after the move else 0',
      low: 0,
      high: 1,
    });
    out.push({
      name: `${p}_result`,
      scaling: 'if the move ends the game: +1 mover wins, -1 mover loses, 0 draw; else 0',
      low: -1,
      high: 1,
    });
    out.push({
      name: `${p}_opp_capture`,
      scaling: `max over the opponent's legal replies of the seeds the reply captures / ${STORE_SCALE}; 0 if the move ends the game`,
      low: 0,
      high: 48 / STORE_SCALE,
    });
    out.push({
      name: `${p}_opp_can_win`,
      scaling:
        '1 if some legal reply of the opponent ends the game with the opponent ahead (final scores) else 0; 0 if the move ends the game',
      low: 0,
      high: 1,
    });
    out.push({
      name: `${p}_value2`,
      scaling: `if the move ends the game: (mover final - opponent final) / ${STORE_SCALE}; else min over the opponent's legal replies of (mover store - opponent store) after the reply / ${STORE_SCALE}, using final scores where the reply ends the game`,
      low: -48 / STORE_SCALE,
      high: 48 / STORE_SCALE,
    });
    pitFeatures(c.lookaheadEncoding, `${p}_own_pit`, "the mover's", 'after the move: ');
    pitFeatures(c.lookaheadEncoding, `${p}_opp_pit`, "the opponent's", 'after the move: ');
    out.push({
      name: `${p}_own_store`,
      scaling: `after the move: the mover's store / ${STORE_SCALE}`,
      low: 0,
      high: 48 / STORE_SCALE,
    });
    out.push({
      name: `${p}_opp_store`,
      scaling: `after the move: the opponent's store / ${STORE_SCALE}`,
      low: 0,
      high: 48 / STORE_SCALE,
    });
  }
  return out;
}

/** One name per feature, in observation order (e.g. `own_pit_0`, `la3_capture`). */
export function featureNames(cfg?: ObservationConfigInput | null): string[] {
  return describeFeatures(cfg).map((f) => f.name);
}

/**
 * Encodes states of the engine's fast path into observations. One instance
 * holds all its scratch buffers, so `encode` allocates nothing.
 *
 * After `encode`, `children` holds the position each legal action leads to
 * (action a at offset a * STATE_SIZE) and the per-action arrays hold what the
 * move did: the environments step by copying a child, never playing twice.
 */
export class ObservationEncoder {
  readonly config: ObservationConfig;
  readonly rules: Rules;
  /** Floats per observation. */
  readonly size: number;
  /** After `encode`: child a at offset a * STATE_SIZE (meaningful where the mask has bit a). */
  readonly children = new Uint8Array(ACTIONS * STATE_SIZE);
  readonly #moves = new ActionStats();
  /** After `encode`, per legal action: laps sown (1 + relays). */
  readonly laps: Uint32Array = this.#moves.laps;
  /** After `encode`, per legal action: seeds sown over all laps. */
  readonly seedsSown: Uint32Array = this.#moves.seedsSown;
  /** After `encode`, per legal action: the pit where the last seed landed. */
  readonly endPit: Int8Array = this.#moves.endPit;
  /** After `encode`, per legal action: seeds captured into the mover's store. */
  readonly captured: Uint8Array = this.#moves.captured;
  /** After `encode`, per legal action: the pit captured from, or -1. */
  readonly capturedPit: Int8Array = this.#moves.capturedPit;
  readonly #status = new Uint8Array(ACTIONS);

  readonly #childViews: Uint8Array[];
  /** The opponent's replies to one child, reply r at r * STATE_SIZE, and their views. */
  readonly #replies = new Uint8Array(ACTIONS * STATE_SIZE);
  readonly #replyViews: Uint8Array[];
  readonly #replyStatus = new Uint8Array(ACTIONS);
  readonly #scores = new Int32Array(2);
  readonly #perPit: number;
  readonly #baseSize: number;
  readonly #blockSize: number;
  // The config's fields, read once: the config object's shape varies with where it came from.
  readonly #counts: boolean;
  readonly #onehot: boolean;
  readonly #lookahead: boolean;
  readonly #lookaheadCounts: boolean;
  readonly #lookaheadOnehot: boolean;
  readonly #ruleCode: RuleCode;

  constructor(cfg?: ObservationConfigInput | null, rules?: RulesInput | null) {
    this.config = resolveObservationConfig(cfg);
    this.rules = resolveRules(rules);
    this.size = observationSize(this.config);
    this.#perPit = perPit(this.config.encoding);
    this.#baseSize = baseSize(this.config.encoding);
    this.#blockSize = lookaheadBlockSize(this.config.lookaheadEncoding);
    this.#counts = this.config.encoding === 'counts';
    this.#onehot = this.config.encoding === 'onehot';
    this.#lookahead = this.config.lookahead;
    this.#lookaheadCounts = this.config.lookaheadEncoding === 'counts';
    this.#lookaheadOnehot = this.config.lookaheadEncoding === 'onehot';
    this.#ruleCode = ruleCode(this.rules);
    this.#childViews = Array.from({ length: ACTIONS }, (_, a) =>
      this.children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE),
    );
    this.#replyViews = Array.from({ length: ACTIONS }, (_, r) =>
      this.#replies.subarray(r * STATE_SIZE, (r + 1) * STATE_SIZE),
    );
  }

  /**
   * Writes the observation of `state` (from the side of its player to move)
   * into `out[offset .. offset + size)` and returns the legal-action bit mask
   * (bit a set when action a is legal; 0 once the game is over).
   */
  encode(state: Uint8Array, out: Float32Array, offset: number): number {
    const mover = state[TO_MOVE] as number;
    this.#encodeBase(state, mover, out, offset);
    const mask = this.#expand(state);
    if (this.#lookahead) this.#encodeLookahead(state, mover, mask, out, offset + this.#baseSize);
    return mask;
  }

  #encodeBase(state: Uint8Array, mover: number, out: Float32Array, offset: number): void {
    const own = mover * 6;
    const opp = 6 - own;
    if (this.#counts) writeCountsPits(out, offset, state, 0, own, opp);
    else writeBucketedPits(out, offset, state, 0, own, opp, this.#onehot);
    const stores = offset + 12 * this.#perPit;
    out[stores] = STORE_FEATURE[48 + (state[STORE_0 + mover] as number)] as number;
    out[stores + 1] = STORE_FEATURE[48 + (state[STORE_0 + 1 - mover] as number)] as number;
  }

  /** Plays every action into `children`, recording what each legal one did. */
  #expand(state: Uint8Array): number {
    return expand(state, this.#ruleCode, this.children, this.#status, this.#moves);
  }

  #encodeLookahead(
    state: Uint8Array,
    mover: number,
    mask: number,
    out: Float32Array,
    offset: number,
  ): void {
    const opponent = 1 - mover;
    const own = mover * 6;
    const opp = 6 - own;
    const children = this.children;
    // Module constants and tables read once into locals: read in the loop, each
    // use would load the binding and check it again after every call.
    const storeFeature = STORE_FEATURE;
    const lapsFeature = LAPS_FEATURE;
    const features = this.#blockSize;
    const countsPits = this.#lookaheadCounts;
    const onehotPits = this.#lookaheadOnehot;
    const stateSize = STATE_SIZE;
    const ownStore = STORE_0 + mover;
    const oppStore = STORE_0 + opponent;
    const storeBefore = state[ownStore] as number;
    for (let a = 0; a < ACTIONS; a++) {
      const at = offset + a * features;
      if ((mask & (1 << a)) === 0) {
        out.fill(0, at, at + features);
        continue;
      }
      const c = a * stateSize;
      const childOwnStore = children[c + ownStore] as number;
      const childOppStore = children[c + oppStore] as number;
      const laps = this.laps[a] as number;
      out[at + LA_LEGAL] = 1;
      out[at + LA_CAPTURE] = storeFeature[48 + childOwnStore - storeBefore] as number;
      out[at + LA_LAPS] = laps < lapsFeature.length ? (lapsFeature[laps] as number) : 1;
      if (countsPits) writeCountsPits(out, at + LA_PITS, children, c, own, opp);
      else writeBucketedPits(out, at + LA_PITS, children, c, own, opp, onehotPits);
      out[at + features - 2] = storeFeature[48 + childOwnStore] as number;
      out[at + features - 1] = storeFeature[48 + childOppStore] as number;
      this.#replyFeatures(this.#childViews[a] as Uint8Array, mover, childOppStore, out, at);
    }
  }
  /**
   * The features of the opponent's replies to one child (ends, result,
   * opp_capture, opp_can_win, value2) into `out[at ..]`: all six replies played
   * in one expand (none once the child holds a winning store), plus a cheap
   * "can the mover then move?" test each. A method of its own so that the
   * compiler can inline what it calls.
   */
  #replyFeatures(
    child: Uint8Array,
    mover: number,
    childOppStore: number,
    out: Float32Array,
    at: number,
  ): void {
    const code = this.#ruleCode;
    const replies = this.#replies;
    const replyViews = this.#replyViews;
    const scores = this.#scores;
    const storeFeature = STORE_FEATURE;
    const ownStore = STORE_0 + mover;
    const oppStore = STORE_0 + 1 - mover;
    const legalReplies = expand(child, code, replies, this.#replyStatus);
    if (legalReplies === 0) {
      const diff = finalDifference(child, mover, code, scores);
      out[at + LA_ENDS] = 1;
      out[at + LA_RESULT] = diff > 0 ? 1 : diff < 0 ? -1 : 0;
      out[at + LA_OPP_CAPTURE] = 0;
      out[at + LA_OPP_CAN_WIN] = 0;
      out[at + LA_VALUE2] = storeFeature[48 + diff] as number;
      return;
    }
    // Over the legal replies only, with branch-free max and min: their
    // outcomes are close to coin tosses. Differences lie in -48..48.
    let bestOppCapture = 0;
    let oppCanWin = 0;
    let value2 = 48;
    for (let left = legalReplies; left !== 0; left &= left - 1) {
      const r = 31 - Math.clz32(left & -left);
      const at2 = r * STATE_SIZE;
      const replyOwnStore = replies[at2 + ownStore] as number;
      const replyOppStore = replies[at2 + oppStore] as number;
      const gain = replyOppStore - childOppStore - bestOppCapture;
      bestOppCapture += gain & ~(gain >> 31);
      let diff: number;
      const reply = replyViews[r] as Uint8Array;
      if (hasWinningStore(reply) || !hasLegalMove(reply, code)) {
        diff = finalDifference(reply, mover, code, scores);
        oppCanWin |= diff >>> 31;
      } else {
        diff = replyOwnStore - replyOppStore;
      }
      const below = diff - value2;
      value2 += below & (below >> 31);
    }
    out[at + LA_ENDS] = 0;
    out[at + LA_RESULT] = 0;
    out[at + LA_OPP_CAPTURE] = storeFeature[48 + bestOppCapture] as number;
    out[at + LA_OPP_CAN_WIN] = oppCanWin;
    out[at + LA_VALUE2] = storeFeature[48 + value2] as number;
  }
}

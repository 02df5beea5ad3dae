/**
 * What an exported policy's client needs to implement and verify its own
 * observation encoder: `features.md`, the feature specification in words, and
 * `vectors.json`, seeded positions with the exact feature vectors and the
 * probabilities and value the policy gives them.
 */
import {
  describeFeatures,
  lookaheadBlockSize,
  ObservationEncoder,
} from '../../env/gym/observation.ts';
import {
  applyAction,
  formatPosition,
  initialPosition,
  legalActions,
  maskActions,
  maskToBytes,
  type Position,
  Random,
  ruleEntries,
} from '../../env/index.ts';
import { MlpRunner, NUM_ACTIONS } from '../mlp-runner.ts';
import { type ExportedPolicy, lookaheadProcedure } from './manifest.ts';

export const FEATURE_SPEC_FILE = 'features.md';
export const VECTORS_FILE = 'vectors.json';
export const VECTORS_FORMAT = 'ayoayo-encoder-vectors';
export const VECTORS_FORMAT_VERSION = 1;
/** Positions in vectors.json: enough to reach captures, relays, fed rows and game ends. */
export const VECTOR_POSITIONS = 64;
const VECTOR_SEED = 20_241;

/** The move rules a client must implement for the legal mask and the lookahead (docs/rules.md, condensed). */
const MOVE_RULES: readonly string[] = [
  'Pits 0..11; player 0 owns pits 0..5, player 1 pits 6..11; sowing goes from pit i to pit (i + 1) mod 12. Pit i faces pit 11 - i. Action a of player p lifts pit 6p + a. Stores are never sown into.',
  'A lap lifts every seed of a pit and sows them one per pit from the next pit on, skipping the pit it was lifted from (this matters for laps of 12 or more seeds).',
  'Relay: if the last seed lands in a pit that already held seeds (either row), that pit is lifted, the seed just dropped included, and a new lap starts from it. The move ends when the last seed lands in an empty pit (which then holds 1). laps = the number of laps sown = 1 + relays.',
  "Capture: if the move ends in the mover's own row and the facing pit holds seeds, the mover's store gains those seeds plus the capturing seed (the capturing seed stays in its pit instead, and is not counted, when the rule option captureSeedStays is true). At most one capture per move; no grand slam.",
  "Illegal: an empty pit; an endless relay (a lap would start from a board and pit that this same move has already started a lap from; relays of over a thousand laps are legal, so detect the repeat exactly, e.g. with a set of (board, pit) pairs); a move that leaves the opponent's row empty when it was empty before the move (the move must feed); any move once a store holds 25 or more.",
  'A position is finished when a store holds 25 or more, or when its player to move has no legal action. Final scores: with a store at 25 or more, the stores; else with leftoverTo = opponent the seeds left on the board go to the player NOT to move, with leftoverTo = owner each player adds their own row.',
];

function table(rows: readonly (readonly string[])[]): string {
  const escapePipes = (cell: string) => cell.replaceAll('|', '\\|');
  return rows.map((row) => `| ${row.map(escapePipes).join(' | ')} |`).join('\n');
}

/** `features.md`: every observation feature of the policy, in words precise enough to implement. */
export function featureSpecMarkdown(policy: ExportedPolicy): string {
  const { observation, rules } = policy;
  const features = describeFeatures(observation);
  const block = lookaheadBlockSize(observation.lookaheadEncoding);
  const base = features.length - (observation.lookahead ? NUM_ACTIONS * block : 0);
  const lines = [
    '# Observation features of this exported policy',
    '',
    `Encoding \`${observation.encoding}\`, lookahead ${observation.lookahead ? 'on' : 'off'}: ${features.length} float32 features (${base} base${observation.lookahead ? ` + ${NUM_ACTIONS} x ${block} lookahead, the boards after the moves in \`${observation.lookaheadEncoding}\`` : ''}). Rule options: ${ruleEntries(
      rules,
    )
      .map(([name, value]) => `${name} = ${String(value)}`)
      .join(', ')}.`,
    '',
    "Everything is from the side of the player to move M (the mover): `own` is M's row and store, `opp` the opponent O = 1 - M's. Pit k of a row is the pit of action k (player 0: pit k, player 1: pit k + 6). Compute each value in double precision, then store it as float32. `" +
      VECTORS_FILE +
      '` beside this file holds positions with their exact feature vectors, legal actions, probabilities and value: check an encoder against it.',
    '',
    '## The rules the legal mask and the lookahead need',
    '',
    ...MOVE_RULES.map((rule) => `- ${rule}`),
    '',
  ];
  if (observation.lookahead) {
    lines.push(
      '## The lookahead features, step by step',
      '',
      ...lookaheadProcedure(observation.lookaheadEncoding).map((step, i) => `${i + 1}. ${step}`),
      '',
    );
  }
  lines.push(
    '## Every feature',
    '',
    table([
      ['index', 'name', 'value', 'low', 'high'],
      ['---', '---', '---', '---', '---'],
      ...features.map((f, i) => [
        String(i),
        `\`${f.name}\``,
        f.scaling,
        String(f.low),
        String(f.high),
      ]),
    ]),
    '',
  );
  return lines.join('\n');
}

/** One position of vectors.json. */
export interface EncoderVector {
  /** The engine's notation: `row0/row1/store0-store1/toMove`. */
  readonly position: string;
  readonly pits: number[];
  readonly stores: number[];
  readonly toMove: number;
  /** Legal actions, ascending. */
  readonly legal: number[];
  /** The observation, float32 values written as JSON numbers. */
  readonly features: number[];
  /** The masked softmax of the policy's logits (illegal actions exactly 0). */
  readonly probabilities: number[];
  /** The value head, for the player to move. */
  readonly value: number;
}

/**
 * Positions from seeded random games (the start, then every third position
 * that still has a legal move), as many as asked.
 */
export function samplePositions(count: number, seed: number, policy: ExportedPolicy): Position[] {
  const rng = Random.fromSeed(seed);
  const positions: Position[] = [initialPosition()];
  while (positions.length < count) {
    let pos = initialPosition();
    for (let ply = 0; positions.length < count; ply++) {
      const legal = legalActions(pos, policy.rules);
      if (legal.length === 0) break;
      if (ply > 0 && ply % 3 === 0) positions.push(pos);
      pos = applyAction(pos, rng.pick(legal), policy.rules);
    }
  }
  return positions;
}

/** `vectors.json`: positions, their observations, and the policy's probabilities and value. */
export function encoderVectors(policy: ExportedPolicy, count = VECTOR_POSITIONS) {
  const encoder = new ObservationEncoder(policy.observation, policy.rules);
  const runner = new MlpRunner(policy.weights);
  const observation = new Float32Array(encoder.size);
  const vectors: EncoderVector[] = samplePositions(count, VECTOR_SEED, policy).map((pos) => {
    const bits = encoder.encode(pos.toState(), observation, 0);
    const mask = maskToBytes(bits, new Uint8Array(NUM_ACTIONS));
    const { probabilities, value } = runner.evaluate(observation, mask);
    return {
      position: formatPosition(pos),
      pits: [...pos.pits],
      stores: [...pos.stores],
      toMove: pos.toMove,
      legal: maskActions(bits),
      features: Array.from(observation),
      probabilities: Array.from(probabilities),
      value,
    };
  });
  return {
    format: VECTORS_FORMAT,
    formatVersion: VECTORS_FORMAT_VERSION,
    observation: { ...policy.observation, size: encoder.size },
    rules: { ...policy.rules },
    tolerance: {
      features: 1e-6,
      probabilities: 1e-5,
      value: 1e-5,
      note: 'features are exact float32 values; probabilities and value depend on float32 summation order',
    },
    positions: vectors,
  };
}

export type EncoderVectors = ReturnType<typeof encoderVectors>;

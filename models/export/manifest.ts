import {
  describeFeatures,
  ENCODINGS,
  type Encoding,
  lookaheadBlockSize,
  type ObservationConfig,
  observationSize,
} from '../../env/gym/observation.ts';
import type { Rules } from '../../env/rules.ts';
import type { MlpWeights } from '../mlp-runner.ts';
import type { PolicySource } from '../policy-file.ts';

/** The manifest written beside every exported model (`manifest.json`). */
export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'ayoayo-export';
export const MANIFEST_FORMAT_VERSION = 1;

export const EXPORT_FORMATS = ['tfjs', 'onnx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What the exporter knows about the policy it writes. */
export interface ExportedPolicy {
  readonly weights: MlpWeights;
  readonly observation: ObservationConfig;
  readonly rules: Rules;
  readonly source: PolicySource | undefined;
  readonly evaluation: Record<string, number> | undefined;
}

export interface TensorSpec {
  readonly name: string;
  readonly shape: readonly (number | string)[];
  readonly dtype: 'float32';
  readonly meaning: string;
}

export const MASKED_SOFTMAX_RULE =
  'p[a] = exp(l[a] - m) / sum over legal b of exp(l[b] - m) for legal a, p[a] = 0 for illegal a, ' +
  'where l are the 6 policy logits and m is the largest legal logit (all p are 0 if no action is legal)';

const JSON_POLICY_LAYOUT =
  'ayoayo-policy v1 (models/policy-file.ts): network.hidden[0..n-1], then network.policy (6 logits) and network.value (1 output) read the last hidden layer. ' +
  'Each layer is {inputSize, outputSize, activation: relu|tanh|linear, kernel, bias}; kernel is base64 of little-endian float32, row-major [inputSize][outputSize]; bias is base64 float32 [outputSize]; ' +
  'y[j] = activation(bias[j] + sum over i of x[i] * kernel[i * outputSize + j]). The value is tanh of its layer.';

const ACTION_MAPPING = {
  count: 6,
  meaning:
    "action a (0..5) lifts pit a of the mover's own row, counted in sowing order from the row's first pit",
  pitOfAction: { player0: 'pit = a (pits 0..5)', player1: 'pit = a + 6 (pits 6..11)' },
  legalMask:
    "1 where the action is legal under the rules (ayoayo's docs/rules.md: the pit is not empty, the relay is not endless, the move feeds an opponent whose row is empty, the game is not over), else 0",
  choice: 'play the legal action with the highest probability (or sample from the probabilities)',
} as const;

const PERSPECTIVE =
  'Everything is from the side of the player to move (the mover): "own" is the mover\'s row and store, "opp" the opponent\'s. ' +
  'Pit k of a row is the pit of action k (player 0: pit k; player 1: pit k + 6). Features are float32, in the order listed; ' +
  'index i of the list is observation[i].';

/** The base features' count per board encoding, as the procedure states it: "14 for counts, ...". */
const BASE_SIZES = ENCODINGS.map(
  (encoding) => `${observationSize({ encoding })} for ${encoding}`,
).join(', ');

/** How the pits of the position after the move are written, per lookahead encoding. */
const LOOKAHEAD_PITS: Record<Encoding, string> = {
  counts: "la{a}_own_pit_k / la{a}_opp_pit_k = seeds in pit k of M's / O's row in C, / 12",
  onehot:
    "la{a}_own_pit_k_eq_b (b = 0..11) and la{a}_own_pit_k_ge_12 for k = 0..5, pit after pit, then la{a}_opp_pit_k_eq_b and la{a}_opp_pit_k_ge_12 the same way: 1 in the bucket of the seeds in pit k of M's / O's row in C (exactly b, or 12 and more), 0 in its twelve others",
  thermometer:
    "la{a}_own_pit_k_ge_b (b = 1..12) for k = 0..5, pit after pit, then la{a}_opp_pit_k_ge_b the same way: 1 if pit k of M's / O's row in C holds b seeds or more, else 0",
};

/**
 * How to compute the lookahead features (la{a}_*) of an observation whose
 * lookahead writes the boards after the moves in `lookaheadEncoding`, precisely
 * enough to be re-implemented in another language; it matches
 * env/gym/observation.ts.
 */
export function lookaheadProcedure(lookaheadEncoding: Encoding): string[] {
  const w = lookaheadBlockSize(lookaheadEncoding);
  return [
    'P is the position being encoded, M its player to move, O = 1 - M. "Legal", moves and captures follow ayoayo\'s docs/rules.md (condensed in the export\'s features.md) under the exported rule options.',
    `For each action a = 0..5 there are ${w} features, la{a}_legal .. la{a}_opp_store in the order listed, after the B base features (B = ${BASE_SIZES}): feature j of action a is observation[B + ${w} a + j]. If a is illegal in P (or P is finished), all ${w} are 0.`,
    'Otherwise let C be the position after M plays a in P (sowing, relays and capture; O is then to move).',
    'A position "is finished" when a store holds 25 or more seeds, or when its player to move has no legal action. Its final scores: with a store at 25 or more, the two stores as they are; otherwise with leftoverTo=opponent every seed left on the board goes to the player who is NOT to move, and with leftoverTo=owner each player adds the seeds left in their own row. The final difference from M\'s side is final(M) - final(O).',
    'la{a}_legal = 1. la{a}_capture = (store of M in C - store of M in P) / 24. la{a}_laps = min(1, log2(1 + laps) / 8), where laps = 1 + the number of relays of the move.',
    'The replies are the legal actions of O in C; there are none when C is finished (a winning store, or O cannot move).',
    "If C has no reply: la{a}_ends = 1; la{a}_result = +1, -1 or 0 as the final difference of C from M's side is > 0, < 0 or 0; la{a}_opp_capture = 0; la{a}_opp_can_win = 0; la{a}_value2 = final difference of C / 24.",
    "Otherwise, for each reply r let R be C after O plays r: la{a}_ends = 0; la{a}_result = 0; la{a}_opp_capture = max over r of (store of O in R - store of O in C) / 24; la{a}_opp_can_win = 1 if some R is finished with a final difference (from M's side) below 0, else 0; la{a}_value2 = min over r of d(R) / 24, where d(R) is R's final difference if R is finished, else (store of M in R - store of O in R).",
    `${LOOKAHEAD_PITS[lookaheadEncoding]}; la{a}_own_store / la{a}_opp_store = M's / O's store in C, / 24.`,
  ];
}

function networkSummary(weights: MlpWeights) {
  return {
    kind: 'mlp',
    inputSize: weights.inputSize,
    hidden: weights.hidden.map((h) => ({ units: h.outputSize, activation: h.activation })),
    policyHead: { units: weights.policy.outputSize, activation: weights.policy.activation },
    valueHead: { units: weights.value.outputSize, activation: weights.value.activation },
  };
}

/** Inputs and outputs of each export format, as a client sees them. */
export function modelInterface(
  format: ExportFormat,
  inputSize: number,
): { inputs: TensorSpec[]; outputs: TensorSpec[]; postprocessing: string; layout?: string } {
  const observation: TensorSpec = {
    name: 'observation',
    shape: ['batch', inputSize],
    dtype: 'float32',
    meaning: 'the encoded position (see observation.features)',
  };
  const value: TensorSpec = {
    name: 'value',
    shape: ['batch', 1],
    dtype: 'float32',
    meaning: 'expected result for the player to move, in [-1, 1] (tanh)',
  };
  if (format === 'onnx') {
    return {
      inputs: [
        observation,
        {
          name: 'action_mask',
          shape: ['batch', 6],
          dtype: 'float32',
          meaning: '1 where the action is legal, 0 where it is illegal (see actions.legalMask)',
        },
      ],
      outputs: [
        {
          name: 'policy',
          shape: ['batch', 6],
          dtype: 'float32',
          meaning: `action probabilities, masked in the graph: ${MASKED_SOFTMAX_RULE}`,
        },
        value,
      ],
      postprocessing: 'none: the policy output is already masked, illegal actions are exactly 0',
    };
  }
  return {
    inputs: [observation],
    outputs: [
      {
        name: format === 'tfjs' ? 'policy_logits' : 'logits',
        shape: ['batch', 6],
        dtype: 'float32',
        meaning:
          format === 'tfjs'
            ? 'unmasked action logits (the model does not know which actions are legal)'
            : 'unmasked action logits, as computed by models/mlp-runner.ts (MlpRunner.forward)',
      },
      value,
    ],
    postprocessing: `the client masks the logits with the legal mask: ${MASKED_SOFTMAX_RULE}`,
    ...(format === 'json' ? { layout: JSON_POLICY_LAYOUT } : {}),
  };
}

/** The manifest: everything a client in another language needs to use the exported files. */
export function buildManifest(
  policy: ExportedPolicy,
  format: ExportFormat,
  files: readonly string[],
  exportedAt: Date,
) {
  const features = describeFeatures(policy.observation).map((f, index) => ({ index, ...f }));
  if (features.length !== policy.weights.inputSize) {
    throw new Error(
      `the policy takes ${policy.weights.inputSize} inputs but its observation encoding has ${features.length} features`,
    );
  }
  return {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_FORMAT_VERSION,
    exportedAt: exportedAt.toISOString(),
    model: {
      format,
      files: [...files],
      ...modelInterface(format, policy.weights.inputSize),
      network: networkSummary(policy.weights),
    },
    observation: {
      encoding: policy.observation.encoding,
      lookahead: policy.observation.lookahead,
      size: features.length,
      perspective: PERSPECTIVE,
      features,
      ...(policy.observation.lookahead
        ? {
            lookaheadEncoding: policy.observation.lookaheadEncoding,
            lookaheadProcedure: lookaheadProcedure(policy.observation.lookaheadEncoding),
          }
        : {}),
    },
    actions: ACTION_MAPPING,
    masking: MASKED_SOFTMAX_RULE,
    rules: { ...policy.rules },
    positionNotation:
      "'p0,p1,p2,p3,p4,p5/p6,p7,p8,p9,p10,p11/store0-store1/toMove', e.g. 4,4,4,4,4,4/4,4,4,4,4,4/0-0/0 (the start)",
    source: policy.source ?? null,
    evaluation: policy.evaluation ?? null,
  };
}

export type ExportManifest = ReturnType<typeof buildManifest>;

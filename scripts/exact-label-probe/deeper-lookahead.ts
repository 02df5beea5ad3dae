// The supervised probe with inputs that look further ahead
// (docs/experiments/2026-12-02-supervised-exact-label-probe.md): the same exact labels and
// training as train-policy.ts (fit-labels.ts), on the observation with lookahead, with or without
// six more inputs per position: for each action, the 3-ply minimax of the store difference (the
// mover's move, every reply, every counter-reply; final scores where the game ends), the value
// alpha-beta would see at depth 3. Prints the errors of the policy alone on
// the accuracy sets, with the set's exact move values (the project's policy files cannot carry the
// extra inputs, so the evaluation is here rather than in `ayoayo accuracy`):
//   npx tsx scripts/exact-label-probe/deeper-lookahead.ts HIDDEN EPOCHS POSITIONS.jsonl...
import { readFileSync } from 'node:fs';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { core, DEFAULT_RULE_CODE, DEFAULT_RULES, parsePosition } from '../../env/index.ts';
import { loadBackend } from '../../models/backend.ts';
import { fitLabels, readLabelRows } from './fit-labels.ts';

const { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE, expand, finalScores } = core;

const [hiddenArg, epochsArg, ...files] = process.argv.slice(2);
if (hiddenArg === undefined || epochsArg === undefined || files.length === 0) {
  console.error(
    'usage: tsx scripts/exact-label-probe/deeper-lookahead.ts HIDDEN EPOCHS POSITIONS.jsonl...',
  );
  process.exit(1);
}
const hidden = hiddenArg.split(',').map(Number);
const epochs = Number(epochsArg);
const observation = { encoding: 'counts', lookahead: true } as const;
const EXTRA = ACTIONS;

const code = DEFAULT_RULE_CODE;
const scores = new Int32Array(2);
/** (player's final score - the other's) of a finished game. */
function finalDiff(s: Uint8Array, at: number, player: number): number {
  finalScores(s, at, code, scores);
  return (scores[player] as number) - (scores[1 - player] as number);
}
const storeDiff = (s: Uint8Array, at: number, player: number) =>
  (s[at + STORE_0 + player] as number) - (s[at + STORE_0 + 1 - player] as number);

const levels = [0, 1, 2].map(() => ({
  children: new Uint8Array(ACTIONS * STATE_SIZE),
  status: new Uint8Array(ACTIONS),
}));

/** Writes, for each action of the mover in `state`, the depth-3 minimax of the store difference / 24. */
function value3(state: Uint8Array, out: Float32Array, at: number): void {
  const mover = state[TO_MOVE] as number;
  const l0 = levels[0] as (typeof levels)[0];
  const l1 = levels[1] as (typeof levels)[0];
  const l2 = levels[2] as (typeof levels)[0];
  const mask = expand(state, code, l0.children, l0.status);
  for (let a = 0; a < ACTIONS; a++) {
    if ((mask & (1 << a)) === 0) {
      out[at + a] = 0;
      continue;
    }
    const child = l0.children.subarray(a * STATE_SIZE, (a + 1) * STATE_SIZE);
    const replies = expand(child, code, l1.children, l1.status);
    let worst: number;
    if (replies === 0) worst = finalDiff(child, 0, mover);
    else {
      worst = 99;
      for (let r = 0; r < ACTIONS; r++) {
        if ((replies & (1 << r)) === 0) continue;
        const reply = l1.children.subarray(r * STATE_SIZE, (r + 1) * STATE_SIZE);
        const counters = expand(reply, code, l2.children, l2.status);
        let best: number;
        if (counters === 0) best = finalDiff(reply, 0, mover);
        else {
          best = -99;
          for (let c = 0; c < ACTIONS; c++) {
            if ((counters & (1 << c)) === 0) continue;
            const at2 = c * STATE_SIZE;
            const s = l2.children;
            const over = core.hasWinningStore(s.subarray(at2, at2 + STATE_SIZE));
            const v = over ? finalDiff(s, at2, mover) : storeDiff(s, at2, mover);
            if (v > best) best = v;
          }
        }
        if (best < worst) worst = best;
      }
    }
    out[at + a] = worst / 24;
  }
}

/** The lookahead observation, plus (when `deeper`) the six depth-3 values. */
class ProbeEncoder extends ObservationEncoder {
  constructor(readonly deeper: boolean) {
    super(observation, DEFAULT_RULES);
    if (deeper) Object.defineProperty(this, 'size', { value: this.size + EXTRA });
  }
  override encode(state: Uint8Array, out: Float32Array, offset: number): number {
    const mask = super.encode(state, out, offset);
    if (this.deeper) value3(state, out, offset + this.size - EXTRA);
    return mask;
  }
}

const rows = readLabelRows(files);
const { tf } = await loadBackend('auto');
const RANK: Record<string, number> = { loss: 0, draw: 1, win: 2 };

for (const deeper of [false, true]) {
  const encoder = new ProbeEncoder(deeper);
  const { model } = await fitLabels(tf, encoder, rows, hidden, epochs);
  for (const set of ['main', 'holdout']) {
    const lines = readFileSync(`eval/accuracy/sets/${set}.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    const items = lines.map(
      (line) => JSON.parse(line) as { position: string; value: string; moves: (string | null)[] },
    );
    const obs = new Float32Array(items.length * encoder.size);
    items.forEach((item, i) => {
      encoder.encode(parsePosition(item.position).toState(), obs, i * encoder.size);
    });
    const input = tf.tensor2d(obs, [items.length, encoder.size]);
    const outputs = model.predict(input, { batchSize: 256 }) as unknown as {
      array(): Promise<number[][]>;
    }[];
    const logits = await (outputs[0] as { array(): Promise<number[][]> }).array();
    let errors = 0;
    items.forEach((item, i) => {
      let best = -1;
      let bestLogit = Number.NEGATIVE_INFINITY;
      for (let a = 0; a < ACTIONS; a++) {
        if (item.moves[a] === null) continue;
        const l = (logits[i] as number[])[a] as number;
        if (l > bestLogit) {
          bestLogit = l;
          best = a;
        }
      }
      if ((RANK[item.moves[best] as string] as number) < (RANK[item.value] as number)) errors++;
    });
    console.log(
      `${deeper ? 'lookahead + depth-3 values' : 'lookahead'} ${hiddenArg}, ${rows.length} positions, ${epochs} epochs: ${set} ${((100 * errors) / items.length).toFixed(1)}% errors (${errors} of ${items.length})`,
    );
    input.dispose();
  }
  model.dispose();
}

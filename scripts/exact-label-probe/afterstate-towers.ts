// The supervised probe of docs/experiments/2026-12-02-supervised-exact-label-probe.md (networks
// shaped by the rules): on the probe's exact labels (make-positions.ts), three shapes of network
// trained alike (Adam 1e-3 decaying linearly, minibatches of 512, policy towards the
// value-keeping moves, value towards the proven result),
// each scored every 5 epochs on the accuracy benchmark's main and hold-out sets:
//   flat   the project's MLP over the 146 inputs (HIDDEN: its layers);
//   tower  one small MLP shared by the six actions (HIDDEN: its layers), fed each action's 22
//          lookahead features and the position's 14 counts, its output that action's logit; the
//          value from its last layer, max-pooled over the legal actions;
//   tower2 one small MLP (HIDDEN) shared by the 36 positions two plies ahead (each action, then
//          each reply: 12 pits, 2 stores, game over and its result), an action's logit the soft
//          minimum over the replies of their outputs: a learned evaluation under a 2-ply search.
//   npx tsx scripts/exact-label-probe/afterstate-towers.ts KIND HIDDEN EPOCHS POSITIONS.jsonl...
// (the probe: flat 128,128 / tower 64,64 20 epochs, tower2 64,64 10 epochs, on seeds 101 and 202)

import type * as tfType from '@tensorflow/tfjs';
import { finalDifference, hasLegalMove } from '../../env/gym/fast.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { core, DEFAULT_RULE_CODE, DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadAccuracySet } from '../../eval/accuracy/shipped-sets.ts';
import { loadBackend } from '../../models/backend.ts';
import { readLabelRows } from './fit-labels.ts';

const [kind, hiddenArg, epochsArg, ...files] = process.argv.slice(2);
if (kind === undefined || hiddenArg === undefined || epochsArg === undefined) process.exit(1);
const hidden = hiddenArg.split(',').map(Number);
const epochs = Number(epochsArg);
const { tf } = await loadBackend('auto');
const encoder = new ObservationEncoder({ encoding: 'counts', lookahead: true }, DEFAULT_RULES);
const O = encoder.size;
const BASE = 14;
const LA = 22;
const rows = readLabelRows(files);
const n = rows.length;
const obs = new Float32Array(n * O);
const masks = new Float32Array(n * 6);
const pol = new Float32Array(n * 6);
const val = new Float32Array(n);
rows.forEach((row, i) => {
  const mask = encoder.encode(Uint8Array.from(row.s), obs, i * O);
  let kept = 0;
  for (let a = 0; a < 6; a++) kept += (row.k >> a) & 1;
  for (let a = 0; a < 6; a++) {
    masks[i * 6 + a] = (mask >> a) & 1;
    pol[i * 6 + a] = (row.k >> a) & 1 ? 1 / kept : 0;
  }
  val[i] = row.v;
});
const LEAF = 16;
const leafFeatures = (list: Uint8Array[], out: Float32Array, lm: Float32Array, i: number) => {
  const children = new Uint8Array(6 * 16);
  const status = new Uint8Array(6);
  const replies = new Uint8Array(6 * 16);
  const rstatus = new Uint8Array(6);
  const scores = new Int32Array(2);
  const s = list[i] as Uint8Array;
  const mover = s[core.TO_MOVE] as number;
  const own = mover * 6;
  const opp = 6 - own;
  const put = (st: Uint8Array, at: number, leaf: number, terminal: boolean) => {
    const o = leaf * LEAF;
    for (let k = 0; k < 6; k++) {
      out[o + k] = (st[at + own + k] as number) / 12;
      out[o + 6 + k] = (st[at + opp + k] as number) / 12;
    }
    out[o + 12] = (st[at + 12 + mover] as number) / 24;
    out[o + 13] = (st[at + 13 - mover] as number) / 24;
    if (terminal) {
      const d = finalDifference(st.subarray(at, at + 16), mover, DEFAULT_RULE_CODE, scores);
      out[o + 14] = 1;
      out[o + 15] = d > 0 ? 1 : d < 0 ? -1 : 0;
    }
    lm[leaf] = 1;
  };
  const mask = core.expand(s, DEFAULT_RULE_CODE, children, status);
  for (let a = 0; a < 6; a++) {
    if (((mask >> a) & 1) === 0) continue;
    const child = children.subarray(a * 16, a * 16 + 16);
    const rmask = core.expand(child, DEFAULT_RULE_CODE, replies, rstatus);
    if (rmask === 0) {
      put(children, a * 16, i * 36 + a * 6, true);
      continue;
    }
    for (let r = 0; r < 6; r++) {
      if (((rmask >> r) & 1) === 0) continue;
      const reply = replies.subarray(r * 16, r * 16 + 16);
      const term = core.hasWinningStore(reply) || !hasLegalMove(reply, DEFAULT_RULE_CODE);
      put(replies, r * 16, i * 36 + a * 6 + r, term);
    }
  }
};
const states = rows.map((r) => Uint8Array.from(r.s));
const leaves = kind === 'tower2' ? new Float32Array(n * 36 * LEAF) : new Float32Array(0);
const leafMask = kind === 'tower2' ? new Float32Array(n * 36) : new Float32Array(0);
if (kind === 'tower2') for (let i = 0; i < n; i++) leafFeatures(states, leaves, leafMask, i);
console.error(`${n} rows encoded`);
const rng = Random.fromSeed(1);
const init = (shape: number[], fanIn: number) => {
  const size = shape.reduce((a, b) => a * b, 1);
  const v = new Float32Array(size);
  const sd = Math.sqrt(2 / fanIn);
  for (let i = 0; i < size; i++) {
    const u1 = Math.max(rng.next(), 1e-12);
    const u2 = rng.next();
    v[i] = sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
  return tf.variable(tf.tensor(v, shape));
};
const zeros = (shape: number[]) => tf.variable(tf.zeros(shape));
type Fwd = (
  x: tfType.Tensor2D,
  m: tfType.Tensor2D,
  lf: tfType.Tensor2D,
  lm: tfType.Tensor2D,
) => [tfType.Tensor2D, tfType.Tensor1D];
let forward: Fwd;
let vars: tfType.Variable[];
if (kind === 'flat') {
  const ws: tfType.Variable[] = [];
  let prev = O;
  for (const h of hidden) {
    ws.push(init([prev, h], prev), zeros([h]));
    prev = h;
  }
  const wp = init([prev, 6], prev * 100);
  const bp = zeros([6]);
  const wv = init([prev, 1], prev);
  const bv = zeros([1]);
  vars = [...ws, wp, bp, wv, bv];
  forward = (x) => {
    let h: tfType.Tensor2D = x;
    for (let i = 0; i < ws.length; i += 2)
      h = tf.relu(
        tf.add(tf.matMul(h, ws[i] as tfType.Tensor2D), ws[i + 1] as tfType.Tensor),
      ) as tfType.Tensor2D;
    return [
      tf.add(tf.matMul(h, wp), bp) as tfType.Tensor2D,
      tf.reshape(tf.tanh(tf.add(tf.matMul(h, wv), bv)), [-1]) as tfType.Tensor1D,
    ];
  };
} else if (kind === 'tower2') {
  const ws: tfType.Variable[] = [];
  let prev = LEAF;
  for (const h of hidden) {
    ws.push(init([prev, h], prev), zeros([h]));
    prev = h;
  }
  const wl = init([prev, 1], prev);
  const bl = zeros([1]);
  const wv = tf.variable(tf.scalar(1));
  const bv = zeros([1]);
  vars = [...ws, wl, bl, wv, bv];
  forward = (x, m, lf, lm) => {
    const b = x.shape[0];
    let h = lf;
    for (let i = 0; i < ws.length; i += 2)
      h = tf.relu(
        tf.add(tf.matMul(h, ws[i] as tfType.Tensor2D), ws[i + 1] as tfType.Tensor),
      ) as tfType.Tensor2D;
    const leaf = tf.reshape(tf.add(tf.matMul(h, wl), bl), [b, 6, 6]);
    // terminal leaves: their result, scaled
    const lfr = tf.reshape(lf, [b, 6, 6, LEAF]);
    const term = tf.reshape(tf.slice(lfr, [0, 0, 0, 14], [b, 6, 6, 1]), [b, 6, 6]);
    const res = tf.reshape(tf.slice(lfr, [0, 0, 0, 15], [b, 6, 6, 1]), [b, 6, 6]);
    const v = tf.add(tf.mul(tf.sub(1, term), leaf), tf.mul(term, tf.mul(res, 5)));
    const lmr = tf.reshape(lm, [b, 6, 6]);
    const masked = tf.where(tf.greater(lmr, 0), tf.neg(v), tf.fill([b, 6, 6], -1e9));
    const q = tf.neg(tf.logSumExp(masked, 2)) as tfType.Tensor2D;
    const qs = tf.where(tf.greater(m, 0), q, tf.fill([b, 6], -1e9));
    const value = tf.tanh(tf.add(tf.mul(tf.max(qs, 1), wv), bv)) as tfType.Tensor1D;
    return [q, value];
  };
} else {
  const [h1, ...rest] = hidden as [number, ...number[]];
  const w1a = init([LA, h1], LA + BASE);
  const w1b = init([BASE, h1], LA + BASE);
  const b1 = zeros([h1]);
  const ws: tfType.Variable[] = [];
  let prev = h1;
  for (const h of rest) {
    ws.push(init([prev, h], prev), zeros([h]));
    prev = h;
  }
  const wl = init([prev, 1], prev * 100);
  const wv = init([prev, 1], prev);
  const bv = zeros([1]);
  vars = [w1a, w1b, b1, ...ws, wl, wv, bv];
  const last = prev;
  forward = (x, m) => {
    const b = x.shape[0];
    const base = tf.slice(x, [0, 0], [b, BASE]);
    const la = tf.reshape(tf.slice(x, [0, BASE], [b, 6 * LA]), [b * 6, LA]);
    const pre = tf.add(
      tf.reshape(tf.matMul(la, w1a), [b, 6, h1]),
      tf.reshape(tf.add(tf.matMul(base, w1b), b1), [b, 1, h1]),
    );
    let h = tf.reshape(tf.relu(pre), [b * 6, h1]) as tfType.Tensor2D;
    for (let i = 0; i < ws.length; i += 2)
      h = tf.relu(
        tf.add(tf.matMul(h, ws[i] as tfType.Tensor2D), ws[i + 1] as tfType.Tensor),
      ) as tfType.Tensor2D;
    const logits = tf.reshape(tf.matMul(h, wl), [b, 6]) as tfType.Tensor2D;
    const pooled = tf.max(tf.mul(tf.reshape(h, [b, 6, last]), tf.reshape(m, [b, 6, 1])), 1);
    const value = tf.reshape(tf.tanh(tf.add(tf.matMul(pooled, wv), bv)), [-1]) as tfType.Tensor1D;
    return [logits, value];
  };
}
const opt = tf.train.adam(1e-3);
const mb = 512;
const order = new Int32Array(n);
for (let i = 0; i < n; i++) order[i] = i;
const bo = new Float32Array(mb * O);
const bm = new Float32Array(mb * 6);
const bp2 = new Float32Array(mb * 6);
const bv2 = new Float32Array(mb);
const blf = new Float32Array(kind === 'tower2' ? mb * 36 * LEAF : 1);
const blm = new Float32Array(kind === 'tower2' ? mb * 36 : 1);
const lshape = kind === 'tower2' ? [mb * 36, LEAF] : [1, 1];
const mshape = kind === 'tower2' ? [mb, 36] : [1, 1];
const t0 = performance.now();
for (let e = 0; e < epochs; e++) {
  (opt as unknown as { learningRate: number }).learningRate = 1e-3 * (1 - e / epochs) + 5e-5;
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i] as number;
    order[i] = order[j] as number;
    order[j] = t;
  }
  let lossSum = 0;
  let steps = 0;
  for (let from = 0; from + mb <= n; from += mb) {
    for (let r = 0; r < mb; r++) {
      const k = order[from + r] as number;
      bo.set(obs.subarray(k * O, (k + 1) * O), r * O);
      bm.set(masks.subarray(k * 6, k * 6 + 6), r * 6);
      bp2.set(pol.subarray(k * 6, k * 6 + 6), r * 6);
      bv2[r] = val[k] as number;
      if (kind === 'tower2') {
        blf.set(leaves.subarray(k * 36 * LEAF, (k + 1) * 36 * LEAF), r * 36 * LEAF);
        blm.set(leafMask.subarray(k * 36, (k + 1) * 36), r * 36);
      }
    }
    const loss = tf.tidy(() => {
      const x = tf.tensor2d(bo, [mb, O]);
      const m = tf.tensor2d(bm, [mb, 6]);
      const t = tf.tensor2d(bp2, [mb, 6]);
      const vt = tf.tensor1d(bv2);
      const { value: l, grads } = tf.variableGrads(() => {
        const [logits, v] = forward(
          x,
          m,
          tf.tensor2d(blf, lshape as [number, number]),
          tf.tensor2d(blm, mshape as [number, number]),
        );
        const lp = tf.logSoftmax(tf.where(tf.greater(m, 0), logits, tf.fill([mb, 6], -1e9)));
        const pl = tf.neg(tf.mean(tf.sum(tf.mul(t, lp), 1)));
        const vl = tf.mean(tf.square(tf.sub(v, vt)));
        return tf.add(pl, vl) as tfType.Scalar;
      }, vars);
      opt.applyGradients(
        Object.entries(grads).map(([name, tensor]) => ({ name, tensor: tensor as tfType.Tensor })),
      );
      return l;
    });
    lossSum += (await loss.data())[0] as number;
    loss.dispose();
    steps++;
  }
  if (e === epochs - 1 || e % 5 === 4) {
    console.error(
      `epoch ${e + 1} loss ${(lossSum / steps).toFixed(4)} ${((performance.now() - t0) / 1000).toFixed(0)} s ${score('main')} ${score('holdout')}`,
    );
  }
}

function score(set: string): string {
  const s = loadAccuracySet(set);
  const P = s.positions.length;
  const x = new Float32Array(P * O);
  const m = new Float32Array(P * 6);
  s.positions.forEach((p, i) => {
    const mask = encoder.encode(p.parsed.toState(), x, i * O);
    for (let a = 0; a < 6; a++) m[i * 6 + a] = (mask >> a) & 1;
  });
  const st = s.positions.map((p) => p.parsed.toState());
  const lf = new Float32Array(kind === 'tower2' ? P * 36 * LEAF : 1);
  const lm = new Float32Array(kind === 'tower2' ? P * 36 : 1);
  if (kind === 'tower2') for (let i = 0; i < P; i++) leafFeatures(st, lf, lm, i);
  const logits = tf.tidy(() =>
    forward(
      tf.tensor2d(x, [P, O]),
      tf.tensor2d(m, [P, 6]),
      tf.tensor2d(lf, kind === 'tower2' ? [P * 36, LEAF] : [1, 1]),
      tf.tensor2d(lm, kind === 'tower2' ? [P, 36] : [1, 1]),
    )[0].dataSync(),
  );
  let errors = 0;
  s.positions.forEach((p, i) => {
    let best = -1;
    let bl = -Infinity;
    for (let a = 0; a < 6; a++) {
      if ((m[i * 6 + a] as number) > 0 && (logits[i * 6 + a] as number) > bl) {
        bl = logits[i * 6 + a] as number;
        best = a;
      }
    }
    if ((p.losingMask >> best) & 1) errors++;
  });
  return `${set} ${((100 * errors) / P).toFixed(1)}%`;
}

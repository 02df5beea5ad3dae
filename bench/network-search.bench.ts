import onnxProto from 'onnx-proto';
import { MinimaxAgent } from '../agents/minimax.ts';
import { registerNetworkKinds } from '../agents/network/kinds.ts';
import { NetworkEvaluator } from '../agents/network/network-evaluator.ts';
import { type PuctResult, PuctSearch } from '../agents/puct/search.ts';
import { createAgent } from '../agents/spec.ts';
import { DEFAULT_RULES, legalActions, type Position, Random, type Rules } from '../env/index.ts';
import { loadBackend } from '../models/backend.ts';
import { buildOnnxModel } from '../models/export/onnx-model.ts';
import { inferenceEngine } from '../models/inference/inference-engine.ts';
import { OnnxForward } from '../models/inference/onnx-forward.ts';
import { loadOnnxRuntime } from '../models/inference/onnx-runtime.ts';
import { loadPolicy } from '../models/load-policy.ts';
import { type ForwardPass, type MlpWeights, plainForward } from '../models/mlp-runner.ts';
import { TfjsForward } from '../models/tfjs-forward.ts';
import { bestOf, midgames } from './agents.bench.ts';
import type { Emit } from './types.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

const POLICY = 'models/pretrained';
const BATCHES = [1, 16, 64, 256] as const;

/** Multiply-adds of one forward pass, times 2: the network's floating-point operations per position. */
function flopsPerPosition(weights: MlpWeights): number {
  const layers = [...weights.hidden, weights.policy, weights.value];
  return layers.reduce((sum, l) => sum + 2 * l.inputSize * l.outputSize, 0);
}

export interface OrtPublic {
  readonly InferenceSession: {
    create(
      model: Uint8Array,
      options: object,
    ): Promise<{
      run(feeds: Record<string, unknown>): Promise<Record<string, { data: Float32Array }>>;
      release(): Promise<void>;
    }>;
  };
  readonly Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

const SESSION = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential' };

/** The core's arithmetic limit as onnxruntime reaches it: GFLOP/s of a 512^3 single-thread MatMul. */
export async function corePeak(ort: OrtPublic): Promise<number> {
  const { onnx } = onnxProto;
  const n = 512;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const io = (name: string) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimValue: n }, { dimValue: n }] } } },
  });
  const model = onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 13 }],
      graph: {
        name: 'peak',
        node: [{ opType: 'MatMul', input: ['a', 'b'], output: ['c'] }],
        input: [io('a'), io('b')],
        output: [io('c')],
      },
    }),
  ).finish();
  const session = await ort.InferenceSession.create(model, SESSION);
  const a = new ort.Tensor('float32', new Float32Array(n * n).fill(0.5), [n, n]);
  await session.run({ a, b: a });
  // The best of many short runs: on a shared core the least disturbed one is the limit.
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 20; r++) {
    const start = performance.now();
    for (let i = 0; i < 2; i++) await session.run({ a, b: a });
    best = Math.min(best, (performance.now() - start) / 2);
  }
  await session.release();
  return (2 * n * n * n) / (best / 1000) / 1e9;
}

/** Evaluations a second of a forward pass at `batch`, best of three runs. */
function forwardRate(forward: ForwardPass, inputSize: number, batch: number): number {
  const obs = new Float32Array(batch * inputSize).map((_, i) => (i % 7) / 10);
  const logits = new Float32Array(batch * 6);
  const values = new Float32Array(batch);
  const reps = Math.ceil(4000 / batch);
  forward(obs, batch, logits, values);
  const ms = bestOf(3, () => {
    for (let r = 0; r < reps; r++) forward(obs, batch, logits, values);
  });
  return (reps * batch) / (ms / 1000);
}

/**
 * The same through onnxruntime-node's public, asynchronous session API, over
 * `batches` (one call of each size in turn): evaluations a second, best of three passes.
 */
async function publicSessionRate(
  ort: OrtPublic,
  weights: MlpWeights,
  batches: readonly number[],
): Promise<number> {
  const model = buildOnnxModel(weights, {
    description: '',
    metadata: {},
    producerVersion: '1',
    outputs: 'logits',
  });
  const session = await ort.InferenceSession.create(model, SESSION);
  const feeds = new Map<number, Record<string, unknown>>();
  for (const batch of new Set(batches)) {
    const obs = new Float32Array(batch * weights.inputSize).map((_, i) => (i % 7) / 10);
    feeds.set(batch, { observation: new ort.Tensor('float32', obs, [batch, weights.inputSize]) });
  }
  const sequence = batches.map((batch) => feeds.get(batch) as Record<string, unknown>);
  for (const feed of feeds.values()) await session.run(feed);
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 3; k++) {
    const start = performance.now();
    for (const feed of sequence) await session.run(feed);
    best = Math.min(best, performance.now() - start);
  }
  await session.release();
  return batches.reduce((sum, b) => sum + b, 0) / (best / 1000);
}

/** `publicSessionRate` at one batch size (about 4 000 evaluations a pass). */
function fixedBatches(batch: number): number[] {
  return new Array<number>(Math.ceil(4000 / batch)).fill(batch);
}

/** What a search-rate measurement needs of a source tree (this one's, or an earlier commit's in bench/against.ts). */
export interface SearchModules {
  readonly createAgent: typeof createAgent;
  readonly legalActions: typeof legalActions;
  readonly Random: typeof Random;
  readonly rules: Rules;
}

/** This tree's modules. */
export const THIS_SEARCH_MODULES: SearchModules = {
  createAgent,
  legalActions,
  Random,
  rules: DEFAULT_RULES,
};

/**
 * Milliseconds a move and PUCT simulations a second of agent `spec` over
 * `positions` (made by the same tree's engine), the better of two timed
 * sweeps after one warm-up sweep.
 */
export async function simulationsPerSec(
  m: SearchModules,
  spec: string,
  positions: readonly Position[],
): Promise<{ msPerMove: number; simulationsPerSec: number }> {
  const { rules } = m;
  const agent = await m.createAgent(spec, { rules });
  let simulations = 0;
  const all = async (): Promise<number> => {
    simulations = 0;
    const start = performance.now();
    for (const pos of positions) {
      await agent.act(pos, { legal: m.legalActions(pos, rules), rng: m.Random.fromSeed(1), rules });
      simulations += (agent as { lastSearch?: PuctResult }).lastSearch?.simulations ?? 0;
    }
    return performance.now() - start;
  };
  await all();
  let ms = Number.POSITIVE_INFINITY;
  let sims = 0;
  for (let r = 0; r < 2; r++) {
    const t = await all();
    if (t / simulations < ms / Math.max(sims, 1) || sims === 0) {
      ms = t;
      sims = simulations;
    }
  }
  await agent.close?.();
  return {
    msPerMove: +(ms / positions.length).toFixed(1),
    simulationsPerSec: Math.round(sims / (ms / 1000)),
  };
}

/**
 * Search with the shipped network. The forward pass alone per backend and
 * batch (evaluations a second, and what share of the core's arithmetic
 * limit that is); onnxruntime's own session (its public API) against the
 * project's evaluator inside a PUCT search at batches 16 and 64; PUCT
 * simulations per second (`az:...,t=50ms` as users run it, and 800
 * simulations without a cache at batch 1 and 16); alpha-beta nodes per second
 * with the value at the horizon. On the process's inference backend
 * (AYOAYO_INFERENCE) where not said otherwise.
 */
export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const positions = midgames(20);
  const { weights } = loadPolicy(POLICY);
  const flops = flopsPerPosition(weights);
  const { runtime } = await loadOnnxRuntime();
  const ort =
    runtime === null ? null : ((await import('onnxruntime-node')) as unknown as OrtPublic);
  const matmulPeak = ort === null ? null : await corePeak(ort);

  // The forward pass alone, per position.
  const tfjs = new TfjsForward((await loadBackend('auto')).tf, weights);
  const onnx = runtime === null ? null : new OnnxForward(runtime, weights);
  const forwards: [string, ForwardPass][] = [
    ['plain', plainForward(weights)],
    ['tfjs', tfjs.forward.bind(tfjs)],
    ...(onnx === null ? [] : [['onnx', onnx.forward.bind(onnx)] as [string, ForwardPass]]),
  ];
  const forwardRates: { runner: string; batch: number; rate: number }[] = [];
  for (const batch of BATCHES) {
    for (const [runner, forward] of forwards) {
      if (runner === 'plain' && batch > 16) continue;
      forwardRates.push({ runner, batch, rate: forwardRate(forward, weights.inputSize, batch) });
    }
    if (ort !== null) {
      const rate = await publicSessionRate(ort, weights, fixedBatches(batch));
      forwardRates.push({ runner: 'onnxruntime-node session.run (public API)', batch, rate });
    }
  }
  // The core's arithmetic limit as reached in this process: the better of the
  // bare MatMul and the network's own best rate, since onnxruntime's fused
  // layers outrun its lone 512^3 MatMul on this machine (a share above 1 would
  // say the MatMul is no limit).
  const peak =
    matmulPeak === null
      ? null
      : Math.max(matmulPeak, ...forwardRates.map(({ rate }) => (rate * flops) / 1e9));
  if (matmulPeak !== null && peak !== null) {
    emit({
      name: 'core-peak',
      matmul: 512,
      threads: 1,
      matmulGflopsPerSec: +matmulPeak.toFixed(1),
      gflopsPerSec: +peak.toFixed(1),
    });
  }
  const share = (rate: number) =>
    peak === null ? {} : { shareOfPeak: +((rate * flops) / 1e9 / peak).toFixed(3) };
  for (const { runner, batch, rate } of forwardRates) {
    emit({
      name: 'network-forward',
      runner,
      batch,
      evaluationsPerSec: Math.round(rate),
      gflopsPerSec: +((rate * flops) / 1e9).toFixed(2),
      ...share(rate),
    });
  }
  tfjs.dispose();
  onnx?.dispose();

  // The project's evaluator inside a PUCT search: time spent in the forward pass,
  // and in the whole evaluator, against onnxruntime's own session at the
  // search's batch size and over the very row counts the search's calls had (a
  // batch of leaves may end early: a descent that meets a leaf already waiting
  // ends it, a finished game needs no evaluation). Sweeps and sessions
  // alternate, the best of five rounds of each.
  const engine = await inferenceEngine();
  for (const batch of [16, 64]) {
    const inference = await engine.create(weights, { batched: true });
    let forwardMs = 0;
    let calls: number[] = [];
    const timed: ForwardPass = (obs, n, logits, values) => {
      calls.push(n);
      const start = performance.now();
      inference.forward(obs, n, logits, values);
      forwardMs += performance.now() - start;
    };
    const evaluator = new NetworkEvaluator(weights, loadPolicy(POLICY).observation, rules, {
      forward: timed,
    });
    let evaluatorMs = 0;
    const timedEvaluator = {
      evaluate: (...args: Parameters<NetworkEvaluator['evaluate']>) => {
        const start = performance.now();
        evaluator.evaluate(...args);
        evaluatorMs += performance.now() - start;
      },
    };
    const search = new PuctSearch(timedEvaluator, { rules, batchSize: batch });
    const sweep = () => {
      for (const pos of positions) search.search(pos.toState(), { simulations: 800 });
    };
    sweep();
    let best = { inSearch: 0, evaluator: 0, forwardShare: 0, meanRows: 0 };
    let own = 0;
    let ownAtRows = 0;
    for (let round = 0; round < 5; round++) {
      forwardMs = 0;
      evaluatorMs = 0;
      calls = [];
      const before = evaluator.evaluations;
      const start = performance.now();
      sweep();
      const searchMs = performance.now() - start;
      const evaluations = evaluator.evaluations - before;
      const inSearch = evaluations / (forwardMs / 1000);
      if (inSearch > best.inSearch) {
        best = {
          inSearch,
          evaluator: evaluations / (evaluatorMs / 1000),
          forwardShare: forwardMs / searchMs,
          meanRows: evaluations / calls.length,
        };
      }
      if (ort !== null) {
        own = Math.max(own, await publicSessionRate(ort, weights, fixedBatches(batch)));
        ownAtRows = Math.max(ownAtRows, await publicSessionRate(ort, weights, calls));
      }
    }
    emit({
      name: 'evaluator-in-search',
      inference: inference.runs,
      batch,
      meanRows: +best.meanRows.toFixed(1),
      forwardEvaluationsPerSec: Math.round(best.inSearch),
      evaluatorEvaluationsPerSec: Math.round(best.evaluator),
      ...(ort === null
        ? {}
        : {
            onnxruntimeSessionPerSec: Math.round(own),
            vsOnnxruntimeSession: +(best.inSearch / own).toFixed(2),
            onnxruntimeSessionAtSearchRowsPerSec: Math.round(ownAtRows),
            vsOnnxruntimeSessionAtSearchRows: +(best.inSearch / ownAtRows).toFixed(2),
          }),
      forwardShareOfSearch: +best.forwardShare.toFixed(2),
      ...share(best.inSearch),
    });
    inference.dispose();
  }

  // PUCT with the network, as users run it.
  const act = (spec: string) => simulationsPerSec(THIS_SEARCH_MODULES, spec, positions);
  emit({
    name: 'az-simulations-per-sec',
    spec: `az:${POLICY},t=50ms`,
    ...(await act(`az:${POLICY},t=50ms`)),
  });
  for (const batch of [1, 16]) {
    emit({
      name: 'az-simulations-per-sec',
      spec: `az:${POLICY},sims=800,cache=0,batch=${batch}`,
      batch,
      ...(await act(`az:${POLICY},sims=800,cache=0,batch=${batch}`)),
    });
  }

  // Alpha-beta with store difference + 16 x value at the horizon, depth 6.
  const net = await createAgent(`minimax:6,eval=${POLICY}`, { rules });
  const plain = new MinimaxAgent({ rules, depth: 6 });
  for (const [label, agent] of [
    ['network', net],
    ['store-difference', plain],
  ] as const) {
    let nodes = 0;
    const start = performance.now();
    for (const pos of positions) {
      await agent.act(pos, { legal: legalActions(pos, rules), rng: Random.fromSeed(1), rules });
      nodes += (agent as { lastSearch?: { nodes: number } }).lastSearch?.nodes ?? 0;
    }
    const ms = performance.now() - start;
    emit({
      name: 'minimax-leaf-nodes-per-sec',
      leaf: label,
      depth: 6,
      nodesPerSearch: Math.round(nodes / positions.length),
      nodesPerSec: Math.round(nodes / (ms / 1000)),
    });
  }
  await net.close?.();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}

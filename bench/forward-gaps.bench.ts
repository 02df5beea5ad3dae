import { observationSize } from '../env/gym/observation.ts';
import { loadBackend } from '../models/backend.ts';
import { OnnxForward } from '../models/inference/onnx-forward.ts';
import { loadOnnxRuntime } from '../models/inference/onnx-runtime.ts';
import { createPolicyValueModel, extractMlpWeights } from '../models/policy-value-model.ts';
import { buildConfig } from '../train/config/build.ts';
import { PRESETS } from '../train/config/presets.ts';
import { observationOf } from '../train/settings/schema.ts';
import { median } from './median.ts';
import { benchPresets } from './train-presets.ts';
import type { Emit } from './types.ts';

/**
 * What the network's calls cost when other work runs between them, as a
 * search's does. The self-play limit (self-play-limit.ts) replays the
 * network's calls back to back; inside self-play the same calls take
 * 1.1-1.3x as long. This bench runs the network of `quick` and of `long`
 * (the weights each run starts from) at self-play's mean rows a call, back
 * to back and with work of a few kinds between the calls:
 *
 * - `branches`: data-dependent branches on 1 kB (no memory to speak of);
 * - `loop`: the same arithmetic without the branches;
 * - `memory`: every cache line of N kB read and written.
 *
 * Each row: the work's microseconds between two calls (`gapMicros`), a
 * call's microseconds (the median of the rounds) and its ratio to the calls
 * back to back. Rounds alternate the kinds. `npm run bench -- forward-gaps`
 * (BENCH_PRESETS=quick for one preset).
 */
const ROUNDS = 8;
const CALLS = 2000;
/** The rows of a self-play call of either preset, on average (`meanRows` of `npm run bench -- train.bench`). */
const ROWS = 19;

interface Gap {
  readonly kind: 'none' | 'branches' | 'loop' | 'memory';
  /** Iterations of `branches` or `loop`; kB of `memory`. */
  readonly size: number;
}

const GAPS: readonly Gap[] = [
  { kind: 'none', size: 0 },
  { kind: 'branches', size: 2000 },
  { kind: 'branches', size: 8000 },
  { kind: 'branches', size: 32000 },
  { kind: 'loop', size: 8000 },
  { kind: 'loop', size: 32000 },
  { kind: 'loop', size: 128000 },
  { kind: 'memory', size: 256 },
  { kind: 'memory', size: 1024 },
  { kind: 'memory', size: 4096 },
];

export async function run(emit: Emit): Promise<void> {
  const { runtime, reason } = await loadOnnxRuntime();
  if (runtime === null) {
    process.stderr.write(`forward-gaps: ${reason}; skipped\n`);
    return;
  }
  const { tf } = await loadBackend('auto');
  for (const preset of benchPresets()) {
    const config = buildConfig([PRESETS[preset] ?? {}, { seed: 1 }]);
    const inputSize = observationSize(observationOf(config));
    const network = { hidden: config.hidden, activation: config.activation };
    const model = createPolicyValueModel(tf, inputSize, network, config.seed);
    const weights = extractMlpWeights(model, network);
    model.dispose();
    const forward = new OnnxForward(runtime, weights);
    try {
      const timed = callsWithGaps(forward, inputSize);
      const backToBack = (timed[0] as TimedGap).callMicros;
      for (const { gap, gapMicros, callMicros } of timed) {
        emit({
          name: 'forward-gap',
          preset,
          rows: ROWS,
          kind: gap.kind,
          size: gap.size,
          gapMicros: Number(gapMicros.toFixed(1)),
          callMicros: Number(callMicros.toFixed(1)),
          toBackToBack: Number((callMicros / backToBack).toFixed(3)),
        });
      }
    } finally {
      forward.dispose();
    }
  }
}

/** A gap's medians over the rounds: the work's microseconds and the call's after it. */
interface TimedGap {
  readonly gap: Gap;
  readonly gapMicros: number;
  readonly callMicros: number;
}

/** Times the calls after each of GAPS (the first: none), in alternating rounds after one to warm up. */
function callsWithGaps(forward: OnnxForward, inputSize: number): TimedGap[] {
  const work = new GapWork();
  const observations = new Float32Array(ROWS * inputSize).map((_, i) => (i % 7) / 10);
  const logits = new Float32Array(ROWS * 6);
  const values = new Float32Array(ROWS);
  const callMicros = GAPS.map((): number[] => []);
  const gapMicros = GAPS.map((): number[] => []);
  for (let round = 0; round <= ROUNDS; round++) {
    GAPS.forEach((gap, k) => {
      let calls = 0;
      let between = 0;
      for (let c = 0; c < CALLS; c++) {
        const before = performance.now();
        work.run(gap);
        const start = performance.now();
        forward.forward(observations, ROWS, logits, values);
        calls += performance.now() - start;
        between += start - before;
      }
      if (round === 0) return;
      callMicros[k]?.push((1000 * calls) / CALLS);
      gapMicros[k]?.push((1000 * between) / CALLS);
    });
  }
  // Keeps the work observable, so that the compiler cannot drop it.
  if (work.checksum() === 0.5) process.stderr.write('\n');
  return GAPS.map((gap, k) => ({
    gap,
    gapMicros: median(gapMicros[k] ?? []),
    callMicros: median(callMicros[k] ?? []),
  }));
}

/** Marsaglia's 32-bit xorshift step. */
function xorshift(x: number): number {
  let y = x ^ (x << 13);
  y ^= y >>> 17;
  return y ^ (y << 5);
}

/** The work put between two calls. */
class GapWork {
  readonly #small = new Int32Array(256);
  readonly #lines = new Int32Array((4096 * 1024) / 4);
  #x = 0x9e3779b9 | 0;
  #sum = 0;

  run({ kind, size }: Gap): void {
    if (kind === 'branches') this.#branches(size);
    else if (kind === 'loop') this.#loop(size);
    else if (kind === 'memory') this.#memory(size);
  }

  checksum(): number {
    return this.#sum + (this.#small[0] as number);
  }

  // A xorshift's bits pick the branch: the predictor cannot learn them.
  #branches(n: number): void {
    const small = this.#small;
    let x = this.#x;
    for (let i = 0; i < n; i++) {
      x = xorshift(x);
      switch (x & 7) {
        case 0:
          small[(x >>> 3) & 255] = (small[(x >>> 3) & 255] as number) + 1;
          break;
        case 1:
          small[(x >>> 5) & 255] = (small[(x >>> 5) & 255] as number) - 3;
          break;
        case 2:
          if ((x & 64) !== 0) small[1] = (small[1] as number) ^ x;
          break;
        case 3:
          this.#sum = (this.#sum + (small[(x >>> 9) & 255] as number)) | 0;
          break;
        default:
          small[x & 255] = x;
      }
    }
    this.#x = x;
  }

  #loop(n: number): void {
    let x = this.#x;
    let sum = this.#sum;
    for (let i = 0; i < n; i++) {
      x = xorshift(x);
      sum = (sum + (x & 1)) | 0;
    }
    this.#x = x;
    this.#sum = sum;
  }

  // One int of every 64-byte line.
  #memory(kb: number): void {
    const lines = this.#lines;
    const end = (kb * 1024) / 4;
    for (let i = 0; i < end; i += 16) lines[i] = ((lines[i] as number) + 1) | 0;
  }
}

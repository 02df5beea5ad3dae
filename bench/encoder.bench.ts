import { DEFAULT_RULES, everyRules, formatRules } from '../env/index.ts';
import {
  compileNativeEncoder,
  compileWasmEncoder,
  type EncodeRun,
  encoderPositions,
  observationChecksum,
  timeEncodes,
  typescriptEncoder,
} from './encoder-yardstick.ts';
import { median, medianRatio } from './median.ts';
import type { Emit } from './types.ts';

const POSITIONS = 50_000;
const CHECK_POSITIONS = 20_000;
const ROUNDS = 5;
const ROUND_SECONDS = 1;

const rate = (run: EncodeRun): number => run.encodes / (run.cpuMs / 1000);

/**
 * The observation encoder with lookahead (counts, 146 floats) in observations
 * per second of CPU time over the positions of random games, and the same
 * encoder written in C (bench/c/lookahead.c) natively and as WebAssembly in
 * this process: how far the TypeScript encoder is from what the processor
 * does with the same algorithm. Each yardstick must first write the TypeScript
 * encoder's observations bit for bit under every rule set; rounds alternate,
 * and each ratio is the median of the rounds'.
 */
export async function run(emit: Emit): Promise<void> {
  const native = compileNativeEncoder();
  if (typeof native === 'string') {
    process.stderr.write(`encoder: ${native}; the comparison with C is skipped\n`);
  }
  try {
    const wasm = compileWasmEncoder();
    if (typeof wasm === 'string') {
      process.stderr.write(`encoder: ${wasm}; the encoder as WebAssembly is skipped\n`);
    }
    for (const rules of everyRules()) {
      const positions = encoderPositions(CHECK_POSITIONS, rules);
      const ts = observationChecksum(typescriptEncoder(rules), positions);
      const others: [string, number][] = [];
      if (typeof native !== 'string') {
        others.push(['bench/c/lookahead.c', native.verify(CHECK_POSITIONS, rules)]);
      }
      if (typeof wasm !== 'string') {
        others.push(['bench/c/lookahead.c as wasm32', observationChecksum(wasm(rules), positions)]);
      }
      for (const [what, checksum] of others) {
        if (checksum !== ts) {
          throw new Error(
            `${what} writes other observations than the encoder (${formatRules(rules)}): checksum ${checksum}, TypeScript ${ts}`,
          );
        }
      }
    }

    const positions = encoderPositions(POSITIONS, DEFAULT_RULES);
    const ts = typescriptEncoder();
    const wasmEncode = typeof wasm === 'string' ? null : wasm(DEFAULT_RULES);
    // Warm-ups for the JIT and V8's wasm tiers.
    timeEncodes(ts, positions, ROUND_SECONDS);
    if (wasmEncode !== null) timeEncodes(wasmEncode, positions, ROUND_SECONDS);
    const tsRates: number[] = [];
    const cRates: number[] = [];
    const wasmRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      tsRates.push(rate(timeEncodes(ts, positions, ROUND_SECONDS)));
      if (typeof native !== 'string') cRates.push(rate(native.time(POSITIONS, ROUND_SECONDS)));
      if (wasmEncode !== null)
        wasmRates.push(rate(timeEncodes(wasmEncode, positions, ROUND_SECONDS)));
    }
    const measurement: Record<string, unknown> = {
      name: 'encoder-lookahead',
      positions: POSITIONS,
      encodesPerSec: Math.round(median(tsRates)),
      clock: 'cpu',
    };
    if (cRates.length > 0) {
      measurement.cEncodesPerSec = Math.round(median(cRates));
      measurement.ratioToC = medianRatio(tsRates, cRates);
    }
    if (wasmRates.length > 0) {
      measurement.wasmEncodesPerSec = Math.round(median(wasmRates));
      measurement.wasmRatioToTs = medianRatio(wasmRates, tsRates);
      if (cRates.length > 0) measurement.wasmRatioToC = medianRatio(wasmRates, cRates);
    }
    emit(measurement);
  } finally {
    if (typeof native !== 'string') native.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}

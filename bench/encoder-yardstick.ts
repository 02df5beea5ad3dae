/**
 * The observation encoder's C yardstick: bench/c/lookahead.c built natively
 * and as wasm32, beside the TypeScript encoder, on the same positions. The
 * board as counts, `{ encoding: 'counts', lookahead: true }` (146 floats, the
 * vector-env bench's lookahead configuration), or natively also as the
 * training presets' thermometer (278 floats).
 */
import { ObservationEncoder, observationSize } from '../env/gym/index.ts';
import { LAPS_LOG2_SCALE } from '../env/gym/observation.ts';
import { core, DEFAULT_RULES, Random, type RuleCode, type Rules, ruleCode } from '../env/index.ts';
import { buildNative, buildWasm, cSource } from './c-build.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, expand, nthAction, setInitial } = core;

const SOURCE = cSource('lookahead.c');
export const YARDSTICK_OBSERVATION = { encoding: 'counts', lookahead: true } as const;
/** Floats in one observation of that configuration (lookahead.c writes 146). */
const OBS = observationSize(YARDSTICK_OBSERVATION);

/** The boards lookahead.c encodes (with lookahead, its blocks' boards as counts). */
export type YardstickEncoding = 'counts' | 'thermometer';

/** The observation config of lookahead.c with the board in `encoding`. */
export function yardstickObservation(encoding: YardstickEncoding) {
  return { ...YARDSTICK_OBSERVATION, encoding } as const;
}

/** Where lookahead.c's positions come from and how it encodes the board. */
export interface YardstickInput {
  /** Default counts. */
  readonly encoding?: YardstickEncoding;
  /** A file of the positions (16 bytes each) instead of random games. */
  readonly file?: string;
}

/** Encodes `state` into `out[offset ..]` and returns the legal mask, as ObservationEncoder.encode. */
export type EncodeFn = (state: Uint8Array, out: Float32Array, offset: number) => number;

/** A timed run: encodes done in `cpuMs` milliseconds of this process's (or the program's) CPU time. */
export interface EncodeRun {
  readonly encodes: number;
  readonly cpuMs: number;
}

/**
 * `count` positions of random games from the start (every position before
 * each ply, and the final one), the child picked as the engine bench's expand
 * loop picks it from `Random.fromSeed(1)`: lookahead.c makes the same ones.
 */
export function encoderPositions(count: number, rules: Rules): Uint8Array {
  const code = ruleCode(rules);
  const positions = new Uint8Array(count * STATE_SIZE);
  const rng = Random.fromSeed(1);
  const state = setInitial(new Uint8Array(STATE_SIZE));
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const status = new Uint8Array(ACTIONS);
  for (let i = 0; i < count; i++) {
    positions.set(state, i * STATE_SIZE);
    const mask = expand(state, code, children, status);
    if (mask === 0) {
      setInitial(state);
      continue;
    }
    const at = nthAction(mask, rng.int(POPCOUNT[mask] as number)) * STATE_SIZE;
    state.set(children.subarray(at, at + STATE_SIZE));
  }
  return positions;
}

/**
 * The legal masks and the bits of every float written, folded as lookahead.c
 * `verify` folds them; `size` floats an observation (the counts board's by default).
 */
export function observationChecksum(encode: EncodeFn, positions: Uint8Array, size = OBS): number {
  const out = new Float32Array(size);
  const bits = new Uint32Array(out.buffer);
  let checksum = 0;
  for (let at = 0; at < positions.length; at += STATE_SIZE) {
    const mask = encode(positions.subarray(at, at + STATE_SIZE), out, 0);
    checksum = (Math.imul(checksum, 31) + mask) >>> 0;
    for (let k = 0; k < size; k++) checksum = (Math.imul(checksum, 31) + (bits[k] as number)) >>> 0;
  }
  return checksum;
}

/**
 * Encodes the positions over and over for about `seconds` of wall time,
 * counting this process's CPU time; `size` floats an observation.
 */
export function timeEncodes(
  encode: EncodeFn,
  positions: Uint8Array,
  seconds: number,
  size = OBS,
): EncodeRun {
  const views = Array.from({ length: positions.length / STATE_SIZE }, (_, i) =>
    positions.subarray(i * STATE_SIZE, (i + 1) * STATE_SIZE),
  );
  // A batch's worth of rows, as the environments write them.
  const out = new Float32Array(64 * size);
  let encodes = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (let i = 0; i < views.length; i++) encode(views[i] as Uint8Array, out, (i & 63) * size);
    encodes += views.length;
  }
  const used = process.cpuUsage(cpu);
  return { encodes, cpuMs: (used.user + used.system) / 1000 };
}

/** The TypeScript encoder of the yardstick's configuration (the board in `encoding`), as an EncodeFn. */
export function typescriptEncoder(
  rules: Rules = DEFAULT_RULES,
  encoding: YardstickEncoding = 'counts',
): EncodeFn {
  const encoder = new ObservationEncoder(yardstickObservation(encoding), rules);
  return (state, out, offset) => encoder.encode(state, out, offset);
}

export interface NativeEncoder {
  /** lookahead.c's checksum over the first `count` positions under these rules. */
  verify(count: number, rules: Rules, input?: YardstickInput): number;
  /** Encodes `count` positions over and over for about `seconds` (default rules). */
  time(count: number, seconds: number, input?: YardstickInput): EncodeRun;
  dispose(): void;
}

/** lookahead.c's optional arguments: the encoding, then the file. */
function inputArgs({ encoding = 'counts', file }: YardstickInput): string[] {
  return file === undefined ? [encoding] : [encoding, file];
}

/** Compiles lookahead.c with `cc -O2`; a sentence saying why not when there is no C compiler. */
export function compileNativeEncoder(): NativeEncoder | string {
  const program = buildNative(SOURCE, ['-lm']);
  if (typeof program === 'string') return program;
  const json = (args: string[]): Record<string, number> =>
    JSON.parse(program.run(args)[0] as string) as Record<string, number>;
  return {
    verify(count, rules, input = {}) {
      const args = ['verify', String(count), String(ruleCode(rules)), ...inputArgs(input)];
      return json(args).checksum as number;
    },
    time(count, seconds, input = {}) {
      const args = ['time', String(count), String(seconds), ...inputArgs(input)];
      const { encodes, cpuMs } = json(args);
      return { encodes: encodes as number, cpuMs: cpuMs as number };
    },
    dispose: () => program.dispose(),
  };
}

/** What lookahead.c exports when built for wasm32. */
interface EncoderExports {
  init(): void;
  state_at(): number;
  laps_at(): number;
  obs_at(): number;
  encode(code: RuleCode): number;
  memory: { readonly buffer: ArrayBuffer };
}

function isEncoderExports(
  value: WebAssembly.Exports,
): value is WebAssembly.Exports & EncoderExports {
  return (
    ['init', 'state_at', 'laps_at', 'obs_at', 'encode'].every(
      (name) => typeof value[name] === 'function',
    ) && typeof value.memory === 'object'
  );
}

/**
 * lookahead.c built for wasm32 (with SIMD), once, giving an EncodeFn per rule
 * set: each call copies the position into the module's memory, encodes there
 * and copies the observation out, as an encoder on a wasm core would. A
 * sentence when there is no clang.
 */
export function compileWasmEncoder(): ((rules: Rules) => EncodeFn) | string {
  const exports = buildWasm(SOURCE, ['-msimd128', '-mbulk-memory']);
  if (typeof exports === 'string') return exports;
  if (!isEncoderExports(exports)) {
    throw new Error(
      `${SOURCE} built for wasm32 lacks the exports bench/encoder-yardstick.ts calls`,
    );
  }
  exports.init();
  const buffer = exports.memory.buffer;
  const lapsFeature = new Float32Array(buffer, exports.laps_at(), 255);
  // observation.ts's laps feature: min(1, log2(1 + laps) / 8).
  for (let n = 0; n < 255; n++) lapsFeature[n] = Math.min(Math.log2(1 + n) / LAPS_LOG2_SCALE, 1);
  const state = new Uint8Array(buffer, exports.state_at(), STATE_SIZE);
  const observation = new Float32Array(buffer, exports.obs_at(), OBS);
  const encode = exports.encode;
  return (rules) => {
    const code = ruleCode(rules);
    return (position, out, offset) => {
      state.set(position);
      const mask = encode(code);
      out.set(observation, offset);
      return mask;
    };
  };
}

/**
 * The C yardstick compiled to WebAssembly: bench/c/playouts.c built with
 * clang for wasm32 and run inside this Node process. It answers what a
 * WebAssembly engine core built from C could gain over the TypeScript engine:
 * the same rules, loops and generator as the native yardstick, at the speed
 * V8 runs wasm.
 */
import {
  core,
  DEFAULT_RULE_CODE,
  Random,
  type RuleCode,
  type Rules,
  ruleCode,
} from '../env/index.ts';
import { buildWasm, cSource } from './c-build.ts';
import {
  foldScores,
  type PlayedGames,
  type PlayoutLoop,
  type TimedRun,
} from './native-playouts.ts';

const { POPCOUNT, STATE_SIZE, finalScores, nthAction, setInitial } = core;

const SOURCE = cSource('playouts.c');

/** What bench/c/playouts.c exports when built for wasm32. */
interface PlayoutExports {
  start(seed: number): void;
  play(loop: number, games: number, code: RuleCode): void;
  plies(): number;
  checksum(): number;
  /** Where the position, its children and their statuses live in `memory`. */
  buffer(): number;
  /** Expands the position at `buffer()`; returns the legal mask. */
  expand(code: RuleCode): number;
  memory: { readonly buffer: ArrayBuffer };
}

export interface WasmPlayouts {
  /** Plays `games` games of each loop from seed 1, as NativePlayouts.play. */
  play(games: number, rules: Rules): Record<PlayoutLoop, PlayedGames>;
  /** Runs one loop (default rules) for about `seconds` of wall time, counting this process's CPU time. */
  time(loop: PlayoutLoop, seconds: number): TimedRun;
  /**
   * The expand loop driven from JavaScript, as search on a wasm core would
   * run: one call into wasm a ply, the child picked in JavaScript (with
   * `Random`) and copied within the module's memory. Plays from seed 1, as `play`.
   */
  playExpandFromJs(games: number, rules: Rules): PlayedGames;
  /** The same loop timed (default rules), as `time`. */
  timeExpandFromJs(seconds: number): TimedRun;
}

const LOOP_INDEX: Record<PlayoutLoop, number> = { reject: 0, expand: 1 };

function isPlayoutExports(
  value: WebAssembly.Exports,
): value is WebAssembly.Exports & PlayoutExports {
  return (
    ['start', 'play', 'plies', 'checksum', 'buffer', 'expand'].every(
      (name) => typeof value[name] === 'function',
    ) && typeof value.memory === 'object'
  );
}

/**
 * Compiles the C loops with `clang --target=wasm32 -O2` (or `$WASM_CC`; the
 * link needs Debian's lld too) and instantiates them. Returns a sentence
 * saying why not when the compiler or linker is missing.
 */
export function compileWasmPlayouts(): WasmPlayouts | string {
  const exports = buildWasm(SOURCE);
  if (typeof exports === 'string') return exports;
  if (!isPlayoutExports(exports)) {
    throw new Error(`${SOURCE} built for wasm32 lacks the exports bench/wasm-playouts.ts calls`);
  }
  return wasmPlayouts(exports);
}

function wasmPlayouts(wasm: PlayoutExports): WasmPlayouts {
  const memory = new Uint8Array(wasm.memory.buffer);
  const at = wasm.buffer();
  const state = new Uint8Array(STATE_SIZE);
  const scores = [0, 0];
  /** One game from the start with the position kept in the module's memory; returns its plies. */
  const expandFromJs = (rng: Random, code: RuleCode): number => {
    setInitial(state);
    memory.set(state, at);
    let plies = 0;
    for (;;) {
      const mask = wasm.expand(code);
      if (mask === 0) break;
      const child = at + (1 + nthAction(mask, rng.int(POPCOUNT[mask] as number))) * STATE_SIZE;
      for (let k = 0; k < STATE_SIZE; k++) memory[at + k] = memory[child + k] as number;
      plies++;
    }
    for (let k = 0; k < STATE_SIZE; k++) state[k] = memory[at + k] as number;
    finalScores(state, 0, code, scores);
    return plies;
  };
  return {
    playExpandFromJs(games, rules) {
      const code = ruleCode(rules);
      const rng = Random.fromSeed(1);
      let plies = 0;
      let checksum = 0;
      for (let g = 0; g < games; g++) {
        plies += expandFromJs(rng, code);
        checksum = foldScores(checksum, scores[0] as number, scores[1] as number);
      }
      return { games, plies, checksum };
    },
    timeExpandFromJs(seconds) {
      const rng = Random.fromSeed(1);
      let games = 0;
      let plies = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      while (performance.now() - start < seconds * 1000) {
        for (let i = 0; i < 500; i++) plies += expandFromJs(rng, DEFAULT_RULE_CODE);
        games += 500;
      }
      const used = process.cpuUsage(cpu);
      return { games, plies, cpuMs: (used.user + used.system) / 1000 };
    },
    play(games, rules) {
      const played = (loop: PlayoutLoop): PlayedGames => {
        wasm.start(1);
        wasm.play(LOOP_INDEX[loop], games, ruleCode(rules));
        return { games, plies: wasm.plies(), checksum: wasm.checksum() >>> 0 };
      };
      return { reject: played('reject'), expand: played('expand') };
    },
    time(loop, seconds) {
      wasm.start(1);
      let games = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      while (performance.now() - start < seconds * 1000) {
        wasm.play(LOOP_INDEX[loop], 500, DEFAULT_RULE_CODE);
        games += 500;
      }
      const used = process.cpuUsage(cpu);
      return { games, plies: wasm.plies(), cpuMs: (used.user + used.system) / 1000 };
    },
  };
}

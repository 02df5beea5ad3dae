/**
 * The C yardstick of the engine bench: compiles bench/c/playouts.c with the
 * machine's C compiler into a temporary folder and runs its two playout loops.
 */
import { type Rules, ruleCode } from '../env/index.ts';
import { buildNative, cSource } from './c-build.ts';

export type PlayoutLoop = 'reject' | 'expand';

/** What one loop played: games, plies, and the final scores folded into a checksum. */
export interface PlayedGames {
  readonly games: number;
  readonly plies: number;
  readonly checksum: number;
}

/** A timed run: games and plies played in `cpuMs` milliseconds of CPU time. */
export interface TimedRun {
  readonly games: number;
  readonly plies: number;
  readonly cpuMs: number;
}

export interface NativePlayouts {
  /** Plays `games` games of each loop from seed 1 (the same stream as `Random.fromSeed(1)`) under `rules`. */
  play(games: number, rules: Rules): Record<PlayoutLoop, PlayedGames>;
  /** Runs one loop (default rules) for about `seconds` of wall time. */
  time(loop: PlayoutLoop, seconds: number): TimedRun;
  /** Deletes the compiled program. */
  dispose(): void;
}

const SOURCE = cSource('playouts.c');

/** Folds one game's final scores into a running checksum, as playouts.c does. */
export function foldScores(checksum: number, score0: number, score1: number): number {
  return (Math.imul(checksum, 31) + score0 * 64 + score1) >>> 0;
}

/**
 * Compiles the C loops with `cc -O2` (or `$CC`). Returns a sentence saying why
 * not when there is no working C compiler.
 */
export function compileNativePlayouts(): NativePlayouts | string {
  const program = buildNative(SOURCE);
  if (typeof program === 'string') return program;
  const run = program.run;
  return {
    play(games, rules) {
      const lines = run(['verify', String(games), String(ruleCode(rules))]);
      const byLoop = Object.fromEntries(
        lines.map((line) => {
          const { loop, ...rest } = JSON.parse(line) as PlayedGames & { loop: PlayoutLoop };
          return [loop, rest];
        }),
      );
      return byLoop as Record<PlayoutLoop, PlayedGames>;
    },
    time(loop, seconds) {
      const [line] = run(['time', loop, String(seconds)]);
      const { games, plies, cpuMs } = JSON.parse(line as string) as TimedRun;
      return { games, plies, cpuMs };
    },
    dispose() {
      program.dispose();
    },
  };
}

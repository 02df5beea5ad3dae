import { expect, it } from 'vitest';
import { playGames } from '../../bench/engine.bench.ts';
import { compileWasmPlayouts } from '../../bench/wasm-playouts.ts';
import { everyRules } from '../../env/index.ts';
import { CLANG_WASM32, describeWithSystemPackage } from '../system-packages.ts';

// The engine bench also times bench/c/playouts.c built as WebAssembly, to show
// what a wasm core built from C would run at; like the native yardstick, it
// compares like with like only if it plays the engine's games.
describeWithSystemPackage(CLANG_WASM32, 'the C yardstick built as WebAssembly', () => {
  it('plays the same games as the engine, game for game, under every rule set', () => {
    const wasm = compileWasmPlayouts();
    if (typeof wasm === 'string') throw new Error(wasm);
    const checksums = everyRules().map((rules) => {
      const played = wasm.play(3000, rules);
      expect(played.reject).toEqual(playGames('reject', 3000, rules));
      expect(played.expand).toEqual(playGames('expand', 3000, rules));
      expect(played.expand).toEqual(wasm.playExpandFromJs(3000, rules));
      expect(played.reject.checksum).not.toBe(played.expand.checksum);
      return played.reject.checksum;
    });
    expect(new Set(checksums).size).toBe(checksums.length);
    // Timing counts games and this process's CPU time.
    const timed = wasm.time('expand', 0.05);
    expect(timed.games).toBeGreaterThan(0);
    expect(timed.plies).toBeGreaterThan(timed.games * 10);
    expect(timed.cpuMs).toBeGreaterThan(0);
    const fromJs = wasm.timeExpandFromJs(0.05);
    expect(fromJs.plies).toBeGreaterThan(fromJs.games * 10);
  });

  it('says why when there is no wasm32 compiler', () => {
    const saved = process.env.WASM_CC;
    process.env.WASM_CC = 'no-such-compiler-ayoayo';
    try {
      expect(compileWasmPlayouts()).toMatch(
        /^no wasm32 C compiler \(no-such-compiler-ayoayo: .*\); install clang and lld$/,
      );
    } finally {
      if (saved === undefined) delete process.env.WASM_CC;
      else process.env.WASM_CC = saved;
    }
  });
});

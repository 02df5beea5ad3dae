import { afterAll, beforeAll, expect, it } from 'vitest';
import { playGames } from '../../bench/engine.bench.ts';
import { compileNativePlayouts, type NativePlayouts } from '../../bench/native-playouts.ts';
import { everyRules } from '../../env/index.ts';
import { C_COMPILER, describeWithSystemPackage } from '../system-packages.ts';

// The engine bench reports the engine's speed as a ratio to bench/c/playouts.c;
// that ratio compares like with like only if the C loop plays the same games.
let native: NativePlayouts;

describeWithSystemPackage(C_COMPILER, 'the C yardstick of the engine bench', () => {
  beforeAll(() => {
    const built = compileNativePlayouts();
    if (typeof built === 'string') throw new Error(built);
    native = built;
  });

  afterAll(() => native?.dispose());

  it('plays the same games as the engine, game for game, under every rule set', () => {
    const checksums = everyRules().map((rules) => {
      const c = native.play(3000, rules);
      expect(c.reject).toEqual(playGames('reject', 3000, rules));
      expect(c.expand).toEqual(playGames('expand', 3000, rules));
      // The two loops draw differently, so they are not the same games.
      expect(c.reject.checksum).not.toBe(c.expand.checksum);
      return c.reject.checksum;
    });
    // Each rule changes the games or their scores: a rule the program ignored would show.
    expect(new Set(checksums).size).toBe(checksums.length);
  });

  it('says why when there is no C compiler', () => {
    const saved = process.env.CC;
    process.env.CC = 'no-such-compiler-ayoayo';
    try {
      expect(compileNativePlayouts()).toMatch(/^no working C compiler \(no-such-compiler-ayoayo: /);
    } finally {
      if (saved === undefined) delete process.env.CC;
      else process.env.CC = saved;
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { playGames } from '../../bench/engine.bench.ts';
import { compileNativePlayouts } from '../../bench/native-playouts.ts';
import { everyRules } from '../../env/index.ts';
import { C_COMPILER, requireSystemPackage, skipWithout } from '../system-packages.ts';

// The engine bench reports the engine's speed as a ratio to bench/c/playouts.c;
// that ratio compares like with like only if the C loop plays the same games.
const noCc = skipWithout(C_COMPILER, import.meta.url, 'the native C yardstick test');
const native = compileNativePlayouts();

describe('the C yardstick of the engine bench', () => {
  afterAll(() => {
    if (typeof native !== 'string') native.dispose();
  });

  it.skipIf(noCc)('plays the same games as the engine, game for game, under every rule set', () => {
    requireSystemPackage(C_COMPILER);
    if (typeof native === 'string') throw new Error(native);
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

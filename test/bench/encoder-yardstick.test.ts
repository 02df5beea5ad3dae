import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileNativeEncoder,
  compileWasmEncoder,
  encoderPositions,
  type NativeEncoder,
  observationChecksum,
  typescriptEncoder,
} from '../../bench/encoder-yardstick.ts';
import { core, DEFAULT_RULES, everyRules } from '../../env/index.ts';
import { C_COMPILER, CLANG_WASM32, describeWithSystemPackage } from '../system-packages.ts';

// The encoder bench reports the observation encoder's speed as a ratio to
// bench/c/lookahead.c; that compares like with like only if the C encoder
// writes the same observations.
const { STATE_SIZE } = core;
/** Floats of the yardstick's observation (counts + lookahead): 14 + 6 x 22. */
const OBSERVATION_SIZE = 146;

describe('the C yardstick of the encoder bench', () => {
  it('makes positions of finished and unfinished random games, the same for the same rules', () => {
    const positions = encoderPositions(3000, DEFAULT_RULES);
    expect(positions).toEqual(encoderPositions(3000, DEFAULT_RULES));
    const count = positions.length / STATE_SIZE;
    let starts = 0;
    for (let i = 0; i < count; i++) {
      const pits = positions.subarray(i * STATE_SIZE, i * STATE_SIZE + core.PITS);
      if (pits.every((seeds) => seeds === 4)) starts++;
    }
    // A game lasts tens of plies, so there are many games but far fewer than positions.
    expect(starts).toBeGreaterThan(20);
    expect(starts).toBeLessThan(count / 10);
  });

  describeWithSystemPackage(C_COMPILER, 'the native encoder yardstick', () => {
    let native: NativeEncoder;
    beforeAll(() => {
      const built = compileNativeEncoder();
      if (typeof built === 'string') throw new Error(built);
      native = built;
    });

    afterAll(() => native?.dispose());

    it('writes the encoder observations, bit for bit, under every rule set', () => {
      const checksums = everyRules().map((rules) => {
        const ts = observationChecksum(typescriptEncoder(rules), encoderPositions(3000, rules));
        expect(native.verify(3000, rules)).toBe(ts);
        return ts;
      });
      // The rules change the observations, so the checksums would catch a rule ignored.
      expect(new Set(checksums).size).toBe(everyRules().length);
      const timed = native.time(3000, 0.05);
      expect(timed.encodes).toBeGreaterThanOrEqual(3000);
      expect(timed.cpuMs).toBeGreaterThan(0);
    });

    it("writes the thermometer board's observations too, of positions read from a file", () => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-yardstick-'));
      try {
        // Positions of another stream than lookahead.c's own: every third of a longer run.
        const all = encoderPositions(9000, DEFAULT_RULES);
        const positions = new Uint8Array(3000 * STATE_SIZE);
        for (let i = 0; i < 3000; i++) {
          positions.set(all.subarray(3 * i * STATE_SIZE, (3 * i + 1) * STATE_SIZE), i * STATE_SIZE);
        }
        const file = join(dir, 'positions');
        writeFileSync(file, positions);
        const size = 146 + 12 * 11;
        const thermometer = observationChecksum(
          typescriptEncoder(DEFAULT_RULES, 'thermometer'),
          positions,
          size,
        );
        expect(native.verify(3000, DEFAULT_RULES, { encoding: 'thermometer', file })).toBe(
          thermometer,
        );
        const counts = observationChecksum(typescriptEncoder(DEFAULT_RULES), positions);
        expect(native.verify(3000, DEFAULT_RULES, { file })).toBe(counts);
        expect(counts).not.toBe(thermometer);
        const timed = native.time(3000, 0.05, { encoding: 'thermometer', file });
        expect(timed.encodes).toBeGreaterThanOrEqual(3000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describeWithSystemPackage(CLANG_WASM32, 'the wasm32 encoder yardstick', () => {
    it('built as WebAssembly, writes every float the encoder writes', () => {
      const build = compileWasmEncoder();
      if (typeof build === 'string') throw new Error(build);
      for (const rules of everyRules()) {
        const wasm = build(rules);
        const ts = typescriptEncoder(rules);
        const positions = encoderPositions(2000, rules);
        const expected = new Float32Array(OBSERVATION_SIZE);
        const actual = new Float32Array(OBSERVATION_SIZE + 3).fill(Number.NaN);
        for (let at = 0; at < positions.length; at += STATE_SIZE) {
          const position = positions.subarray(at, at + STATE_SIZE);
          expect(wasm(position, actual, 3)).toBe(ts(position, expected, 0));
          expect(actual.subarray(3)).toEqual(expected);
        }
      }
    });
  });
});

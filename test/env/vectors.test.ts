import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  IllegalActionError,
  legalActions,
  outcome,
  position,
  type Rules,
} from '../../env/index.ts';

/** One line of test/fixtures/vectors/rules.jsonl (format: end of docs/rules.md). */
interface Vector {
  pits: number[];
  stores: [number, number];
  toMove: 0 | 1;
  rules: Rules;
  legal: number[];
  outcome: [number, number] | null;
  moves: Record<
    string,
    | { illegal: string }
    | { pits: number[]; stores: [number, number]; outcome: [number, number] | null }
  >;
}

const vectorsPath = fileURLToPath(new URL('../fixtures/vectors/rules.jsonl', import.meta.url));

function loadVectors(): Vector[] {
  return readFileSync(vectorsPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Vector);
}

const vectors = loadVectors();

describe('shared rule vectors', () => {
  it('are present and plentiful', () => {
    expect(vectors.length).toBeGreaterThan(100);
  });

  it.each(vectors.map((v, i) => [i + 1, v] as const))('line %i agrees exactly', (_line, v) => {
    const pos = position(v);
    expect(legalActions(pos, v.rules)).toEqual(v.legal);
    expect(outcome(pos, v.rules)?.scores ?? null).toEqual(v.outcome);
    for (let action = 0; action < 6; action++) {
      const expected = v.moves[String(action)];
      if (expected === undefined) throw new Error(`vector lacks move ${action}`);
      if ('illegal' in expected) {
        let caught: unknown;
        try {
          applyAction(pos, action, v.rules);
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(IllegalActionError);
        expect((caught as IllegalActionError).reason).toBe(expected.illegal.replaceAll(' ', '-'));
      } else {
        const next = applyAction(pos, action, v.rules);
        expect(Array.from(next.pits)).toEqual(expected.pits);
        expect(Array.from(next.stores)).toEqual(expected.stores);
        expect(next.toMove).toBe(1 - v.toMove);
        expect(outcome(next, v.rules)?.scores ?? null).toEqual(expected.outcome);
      }
    }
  });
});

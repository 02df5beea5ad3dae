import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ILLEGAL_REASONS, initialPosition, playMove, traceMove } from '../../env/index.ts';

/** docs/rules.md, the rules in the project's own words: its examples must be what the engine does. */
const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');

/** `pits 2 7 0 6 1 6 | 6 6 0 0 6 6` as 12 numbers. */
function pitsOf(text: string): number[] {
  return text.replace('|', ' ').trim().split(/\s+/).map(Number);
}

describe('docs/rules.md', () => {
  it("the worked example: every lap's board and the result are the engine's", () => {
    const example = /```\n(lift 0[\s\S]*?)```/.exec(doc)?.[1];
    if (example === undefined) throw new Error('docs/rules.md has no worked example');
    const laps = [...example.matchAll(/^lift (\d+) .*?pits ([\d |]+?)\s*(?:\(|$)/gm)];
    const trace = traceMove(initialPosition(), 0);
    expect(laps.map((m) => Number(m[1]))).toEqual(trace.map((lap) => lap.from));
    expect(laps.map((m) => pitsOf(m[2] as string))).toEqual(trace.map((lap) => [...lap.pitsAfter]));
    const result = /result: pits ([\d |]+), stores (\d+) : (\d+), player (\d) to move/.exec(
      example,
    );
    const { position } = playMove(initialPosition(), 0);
    expect(pitsOf(result?.[1] ?? '')).toEqual([...position.pits]);
    expect([Number(result?.[2]), Number(result?.[3])]).toEqual([...position.stores]);
    expect(Number(result?.[4])).toBe(position.toMove);
  });

  it('the captureSeedStays variant of the example', () => {
    const variant = /stays in pit 2:\npits `([\d |]+)`, stores (\d+) : (\d+)/.exec(doc);
    const { position } = playMove(initialPosition(), 0, { captureSeedStays: true });
    expect(pitsOf(variant?.[1] ?? '')).toEqual([...position.pits]);
    expect([Number(variant?.[2]), Number(variant?.[3])]).toEqual([...position.stores]);
  });

  it("names each of the engine's illegal-move reasons (but 'not-an-action', which no action 0..5 meets)", () => {
    const named = [...doc.matchAll(/^\| `([a-z ]+)` \|/gm)].map((m) =>
      (m[1] as string).replaceAll(' ', '-'),
    );
    expect(named.sort()).toEqual(ILLEGAL_REASONS.filter((r) => r !== 'not-an-action').sort());
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccuracySetError, readAccuracySet } from '../../../eval/accuracy/accuracy-set.ts';
import { verifyAccuracySet, verifyBudget } from '../../../eval/accuracy/verify.ts';
import { MAIN_TEXT, plantedLine, setText, smallPositionLines } from './set-texts.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setFile(name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, setText(lines));
  return path;
}

/** The error verifying `path` ends with: an AccuracySetError (a user's mistake, one line). */
async function refusal(path: string, options: Parameters<typeof verifyAccuracySet>[1] = {}) {
  const error = await verifyAccuracySet(readAccuracySet(path), options).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AccuracySetError);
  return (error as Error).message;
}

/** "value V, moves [a, b, -, ...]" of a position line. */
function values(line: string): string {
  const p = JSON.parse(line) as { value: string; moves: (string | null)[] };
  return `value ${p.value}, moves [${p.moves.map((v) => v ?? '-').join(', ')}]`;
}

const honest = smallPositionLines(8);

describe('verifyAccuracySet', () => {
  it('agrees with every position of an honest set, and says how far it got', async () => {
    const progress: [number, number][] = [];
    const result = await verifyAccuracySet(readAccuracySet(setFile('honest.jsonl', honest)), {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(result).toMatchObject({ checked: 8, total: 8 });
    expect(progress.at(-1)).toEqual([8, 8]);
    expect(progress.map(([done]) => done)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('names the first line whose values were planted (the checksum made again), with both values', async () => {
    // A perfect agent would be scored as erring wherever these lines' best move is really a losing one.
    const lines = honest.map((line, i) => (i === 2 || i === 5 ? plantedLine(line) : line));
    const path = setFile('planted.jsonl', lines);
    const position = (JSON.parse(honest[2] as string) as { position: string }).position;
    expect(await refusal(path)).toBe(
      `accuracy set ${path}, line 4: the solver disagrees with the values of ${position}: the set has ${values(lines[2] as string)}, the solver ${values(honest[2] as string)}; the set's values were changed or are wrong: do not measure on it`,
    );
  });

  it('checks a seeded sample: the same positions for the same seed, each named by its line', async () => {
    const lines = honest.map((line, i) => (i === 6 ? plantedLine(line) : line));
    const set = readAccuracySet(setFile('sampled.jsonl', lines));
    const checked = async (seed: number): Promise<string> => {
      const seen: number[] = [];
      const result = await verifyAccuracySet(set, {
        sample: 3,
        seed,
        onProgress: (_done, total) => seen.push(total),
      }).then(
        (r) => `agrees on ${r.checked} of ${r.total}`,
        (err: Error) => err.message.replace(/: the solver disagrees.*/, ''),
      );
      expect(new Set(seen)).toEqual(new Set([3]));
      return result;
    };
    const outcomes = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const outcome = await checked(seed);
      expect(await checked(seed)).toBe(outcome);
      outcomes.add(outcome);
    }
    // Some samples miss the planted line, the others name it (line 8: the seventh position).
    expect(outcomes).toEqual(new Set(['agrees on 3 of 8', `accuracy set ${set.path}, line 8`]));
  });

  it('refuses to vouch for a position the solver does not prove within the budget, naming it', async () => {
    const big = MAIN_TEXT.trimEnd().split('\n').slice(1, 3);
    const path = setFile('hard.jsonl', big);
    const position = (JSON.parse(big[0] as string) as { position: string }).position;
    expect(await refusal(path, { nodes: 1000 })).toBe(
      `accuracy set ${path}, line 2: the solver did not prove ${position} within 1000 nodes, so its values cannot be checked`,
    );
  });
});

describe('verifyBudget', () => {
  it("gives the solver four times the set's nodes and its endgame table, within bounds", () => {
    const header = readAccuracySet(setFile('budget.jsonl', honest)).header;
    expect(verifyBudget({ ...header, budget: { nodes: 4_000_000, endgameSeeds: 16 } })).toEqual({
      nodes: 16_000_000,
      endgameSeeds: 16,
    });
    // A file from elsewhere cannot make the check cost without bound.
    expect(verifyBudget({ ...header, budget: { nodes: 1e12, endgameSeeds: 40 } })).toEqual({
      nodes: 64_000_000,
      endgameSeeds: 16,
    });
    expect(verifyBudget({ ...header, budget: { nodes: 1000 } })).toEqual({
      nodes: 4_000_000,
      endgameSeeds: 0,
    });
    expect(verifyBudget({ ...header, budget: { timeMs: 1000 } })).toEqual({
      nodes: 16_000_000,
      endgameSeeds: 0,
    });
  });
});

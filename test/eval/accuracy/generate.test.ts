import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAccuracySet } from '../../../eval/accuracy/accuracy-set.ts';
import { type GenerateOptions, generateAccuracySet } from '../../../eval/accuracy/generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-accuracy-gen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Fast agents and a small solver budget (no endgame table): unproven positions are dropped.
const settings = (out: string): GenerateOptions => ({
  seed: 7,
  positions: 12,
  out: join(dir, out),
  agents: ['greedy', 'minimax:2'],
  nodes: 40_000,
  endgameSeeds: 0,
  tableBits: 14,
  workers: 0,
  generator: 'test',
  solver: 'test',
});

describe('the accuracy set generator', () => {
  it('writes a set that reads back: critical positions, counted per phase', async () => {
    const result = await generateAccuracySet(settings('a.jsonl'));
    const set = readAccuracySet(result.path);
    expect(set.positions.length).toBeGreaterThanOrEqual(12);
    expect(set.header.positions).toBe(set.positions.length);
    const critical = Object.values(set.header.phases).reduce((a, c) => a + c.critical, 0);
    const repeated = Object.values(set.header.phases).reduce((a, c) => a + c.duplicate, 0);
    expect(critical - repeated).toBe(set.positions.length);
    expect(existsSync(`${result.path}.partial`)).toBe(false);
  });

  it('stopped after a game and started again, goes on from its partial file to the same set', async () => {
    const whole = readFileSync(join(dir, 'a.jsonl'), 'utf8');
    const stopped = new Error('stopped');
    let games = 0;
    await expect(
      generateAccuracySet({
        ...settings('b.jsonl'),
        onProgress: (p) => {
          games = p.games;
          if (p.games >= 2) throw stopped;
        },
      }),
    ).rejects.toBe(stopped);
    expect(games).toBe(2);
    expect(existsSync(join(dir, 'b.jsonl.partial'))).toBe(true);
    const resumed = await generateAccuracySet(settings('b.jsonl'));
    expect(resumed.resumedGames).toBe(2);
    expect(readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(whole);
  });

  it('refuses to go on from a partial file of other settings, naming it', async () => {
    await expect(
      generateAccuracySet({
        ...settings('c.jsonl'),
        onProgress: (p) => {
          if (p.games >= 1) throw new Error('stopped');
        },
      }),
    ).rejects.toThrow('stopped');
    await expect(generateAccuracySet({ ...settings('c.jsonl'), nodes: 50_000 })).rejects.toThrow(
      /c\.jsonl\.partial holds the games of a generation with other settings/,
    );
  });
});

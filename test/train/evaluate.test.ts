import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../env/index.ts';
import { evaluatePolicy } from '../../train/report/evaluate.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

describe('evaluatePolicy', () => {
  it('scores the policy from its own side and prints the table eval/report.ts prints', async () => {
    const path = writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-evaluate-')));
    const result = await evaluatePolicy({
      policyPath: path,
      opponents: ['random', 'greedy'],
      games: 4,
      seed: 3,
      workers: 0,
      rules: DEFAULT_RULES,
      openingPlies: 2,
    });
    expect(result.rows.map((r) => r.opponent)).toEqual(['random', 'greedy']);
    for (const r of result.rows) expect(r.wins + r.draws + r.losses).toBe(r.games);
    const lines = result.table.split('\n');
    expect(lines[0]).toMatch(/^against\s+games\s+won\s+drawn\s+lost\s+score\s+95% CI$/);
    expect(lines[1]).toMatch(/^-+( +-+){6}$/);
    const greedy = result.rows[1];
    const cells = (lines[3] ?? '').split(/\s+/);
    expect(cells.slice(0, 5)).toEqual([
      'greedy',
      String(greedy?.games),
      String(greedy?.wins),
      String(greedy?.draws),
      String(greedy?.losses),
    ]);
    expect(cells[5]).toBe(`${((greedy?.score ?? 0) * 100).toFixed(1)}%`);
    expect(lines[4]).toBe(
      `Elo of the policy (random = 0): ${Math.round(result.elo ?? Number.NaN)}`,
    );
  });
});

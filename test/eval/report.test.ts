import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTournament, tournamentJson, writeTournament } from '../../eval/report.ts';
import { runTournament, type TournamentResult } from '../../eval/tournament.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Minimal CSV reading for fields without quotes. */
const readCsv = (path: string): Record<string, string>[] => {
  const [header, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const keys = (header as string).split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((v, i) => [keys[i], v])));
};

describe('tournament reports', () => {
  let result: TournamentResult;
  beforeAll(async () => {
    result = await runTournament({ specs: ['random', 'greedy'], games: 6, seed: 3, workers: 0 });
  });

  it('writes games.csv, summary.csv, ratings.csv and results.json, leaving no temp files', () => {
    const out = join(dir, 'nested', 'run');
    const written = writeTournament(out, result);
    expect(written.map((p) => p.slice(out.length + 1))).toEqual([
      'games.csv',
      'summary.csv',
      'ratings.csv',
      'results.json',
    ]);
    expect(readdirSync(out).sort()).toEqual([
      'games.csv',
      'ratings.csv',
      'results.json',
      'summary.csv',
    ]);

    const games = readCsv(join(out, 'games.csv'));
    expect(games).toHaveLength(6);
    games.forEach((g, i) => {
      const record = result.games[i];
      expect(g.player0).toBe(record?.players[0]);
      expect(Number(g.score0)).toBe(record?.scores[0]);
      expect(g.winner).toBe(record?.winner === null ? 'draw' : String(record?.winner));
      expect(g.opening_moves).toBe(record?.openingMoves.join(' '));
    });
    const summary = readCsv(join(out, 'summary.csv'));
    expect(summary).toEqual([
      expect.objectContaining({
        agent_a: 'random',
        agent_b: 'greedy',
        games: '6',
        wins_a: String(result.pairings[0]?.wins),
        elo_a: '0',
      }),
    ]);
    const ratings = readCsv(join(out, 'ratings.csv'));
    expect(ratings.map((r) => r.agent)).toEqual(result.ratings.map((r) => r.agent));
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(json.games).toHaveLength(6);
    expect(json.pairings[0].a).toBe('random');
  });

  it('overwrites earlier results in place', () => {
    const out = join(dir, 'again');
    writeTournament(out, result);
    writeTournament(out, result);
    expect(readdirSync(out)).toHaveLength(4);
  });

  it('prints a table of pairings and an Elo ladder', () => {
    const text = formatTournament(result);
    expect(text).toMatch(/^pairing\s+games\s+won\s+drawn\s+lost\s+score\s+95% CI/);
    expect(text).toContain('random vs greedy');
    expect(text).toMatch(/random\s+0\s+6/);
    expect(text).toContain('random = 0');
    expect(JSON.parse(tournamentJson(result)).ratings).toHaveLength(2);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { RandomAgent } from '../../agents/random.ts';
import { runChunk } from '../../eval/chunk.ts';
import { type GameRecord, matchSettings, playMatch, scheduleGames } from '../../eval/match.ts';
import { planPairings, runTournament } from '../../eval/tournament.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

// Registers `policy:PATH` specs, here and (through agentKindSources) in the worker threads.
registerNetworkKinds();

const withoutTimes = (games: readonly { seconds: number }[]) =>
  games.map(({ seconds: _, ...g }) => g);

describe('runTournament', () => {
  it('plays a round robin: every pair once, N games each, rated with random at 0', async () => {
    const specs = ['random', 'greedy', 'minimax:2'];
    let reported = 0;
    const result = await runTournament({
      specs,
      games: 10,
      seed: 2,
      workers: 0,
      onProgress: ({ done, total }) => {
        reported = done;
        expect(total).toBe(30);
      },
    });
    expect(reported).toBe(30);
    expect(result.pairings.map((p) => `${p.a}/${p.b}`)).toEqual([
      'random/greedy',
      'random/minimax:2',
      'greedy/minimax:2',
    ]);
    expect(result.games).toHaveLength(30);
    for (const p of result.pairings) expect(p.wins + p.draws + p.losses).toBe(10);
    expect(result.anchor).toBe('random');
    const elo = new Map(result.ratings.map((r) => [r.agent, r.elo]));
    expect(elo.get('random')).toBe(0);
    expect(elo.get('minimax:2')).toBeGreaterThan(elo.get('random') as number);
    expect(result.ratings[0]?.elo).toBeGreaterThanOrEqual(result.ratings[1]?.elo as number);
    for (const r of result.ratings) expect(r.games).toBe(20);
  });

  it('plays a gauntlet from the side of --vs, anchoring the first agent without random', async () => {
    const result = await runTournament({
      specs: ['greedy', 'minimax:1'],
      vs: 'minimax:2',
      games: 4,
      workers: 0,
    });
    expect(result.pairings.map((p) => `${p.a}/${p.b}`)).toEqual([
      'minimax:2/greedy',
      'minimax:2/minimax:1',
    ]);
    expect(result.anchor).toBe('minimax:2');
    expect(result.ratings.find((r) => r.agent === 'minimax:2')?.elo).toBe(0);
  });

  it('gives the same games on a pool of worker threads as in this thread', async () => {
    const options = { specs: ['random', 'greedy', 'mcts:30'], games: 12, seed: 9 };
    const here = await runTournament({ ...options, workers: 0 });
    let reported = 0;
    const pooled = await runTournament({
      ...options,
      workers: 2,
      onProgress: ({ done }) => (reported = done),
    });
    expect(reported).toBe(36);
    expect(withoutTimes(pooled.games)).toEqual(withoutTimes(here.games));
    expect(pooled.ratings).toEqual(here.ratings);
  });

  it('plays policy agents in worker threads as in this thread (the kind registered by models/)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-tournament-policy-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const policy = `policy:${writeRandomPolicy(dir)}`;
    const options = { specs: ['random', 'greedy'], vs: policy, games: 4, seed: 5 };
    const here = await runTournament({ ...options, workers: 0 });
    const pooled = await runTournament({ ...options, workers: 1 });
    expect(here.pairings.map((p) => p.a)).toEqual([policy, policy]);
    expect(withoutTimes(pooled.games)).toEqual(withoutTimes(here.games));
  });

  it('reports a broken agent spec before playing, and a failing agent from a worker', async () => {
    await expect(
      runTournament({ specs: ['random', 'minmax:3'], games: 2, workers: 0 }),
    ).rejects.toThrow(/unknown agent 'minmax'/);
    await expect(
      runTournament({ specs: ['random', 'policy:/nonexistent/policy'], games: 2, workers: 1 }),
    ).rejects.toThrow(/nonexistent/);
  });
});

describe('planPairings', () => {
  it('rejects duplicates and too few agents', () => {
    expect(() => planPairings(['random', 'random'])).toThrow(/listed twice/);
    expect(() => planPairings(['random'])).toThrow(/at least two agents/);
    expect(() => planPairings(['random'], 'random')).toThrow(/at least one agent besides/);
    expect(planPairings(['greedy'], 'random')).toEqual([{ pairing: 0, a: 'random', b: 'greedy' }]);
  });
});

describe('game seeds', () => {
  /** A game as played: everything but the agents' labels and the time it took. */
  const played = (games: readonly GameRecord[]) =>
    games.map(({ seconds: _, a: _a, b: _b, players: _p, ...g }) => g);

  it('do not depend on how an agent is spelled or named', async () => {
    const run = (policy: string, mcts: string) =>
      runTournament({ specs: [policy, mcts, 'random'], games: 6, seed: 3, workers: 0 });
    const short = await run('policy:models/pretrained', 'mcts:20');
    const long = await run('policy:models/pretrained/policy.json', 'mcts:020');
    expect(played(long.games)).toEqual(played(short.games));
    // And the same agents under other names (as two training runs' policies would be) in a match.
    const match = (a: string, b: string) =>
      playMatch({ a: new RandomAgent(a), b: new RandomAgent(b), games: 6, seed: 5 });
    expect(played((await match('run-1', 'random')).records)).toEqual(
      played((await match('run-2', 'baseline')).records),
    );
  });

  it('do not depend on which chunk (worker, queue job) plays a game', async () => {
    const settings = matchSettings({ seed: 4 });
    const labels = { pairing: 2, a: 'mcts:20', b: 'random' };
    const games = scheduleGames(8);
    const whole = await runChunk({ labels, games, settings });
    const pieces = [
      ...(await runChunk({ labels, games: games.slice(5), settings })),
      ...(await runChunk({ labels, games: games.slice(0, 3), settings })),
      ...(await runChunk({ labels, games: games.slice(3, 5), settings })),
    ].sort((x, y) => x.game - y.game);
    expect(played(pieces)).toEqual(played(whole));
    // The pairing's index is part of the seed: the same agents in another slot play other games.
    const elsewhere = await runChunk({ labels: { ...labels, pairing: 3 }, games, settings });
    expect(played(elsewhere).map((g) => g.plies)).not.toEqual(played(whole).map((g) => g.plies));
  });
});

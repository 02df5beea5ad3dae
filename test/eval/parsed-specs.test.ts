import { describe, expect, it } from 'vitest';
import { runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { sampleAccuracySet } from '../../eval/accuracy/sample.ts';
import { loadAccuracySet } from '../../eval/accuracy/shipped-sets.ts';
import { runTournament } from '../../eval/tournament.ts';
import { registerParsedInKind } from './parsed-in.fixture.ts';

registerParsedInKind();

// A spec is parsed once, in the thread that is given it; the worker threads get it parsed.
describe('worker threads play the specs parsed in the main thread', () => {
  it('in a tournament', async () => {
    const options = { specs: ['parsedin', 'random'], games: 4, seed: 5 };
    const here = await runTournament({ ...options, workers: 0 });
    const threads = await runTournament({ ...options, workers: 2 });
    const moves = (r: typeof here) => r.games.map((g) => g.actions);
    expect(moves(threads)).toEqual(moves(here));
  });

  it('in the accuracy benchmark', async () => {
    const set = sampleAccuracySet(loadAccuracySet('main'), 12, 3);
    const options = { specs: ['parsedin'], set, seed: 1 };
    const scored = async (workers: number) =>
      (await runAccuracy({ ...options, workers })).agents.map(({ msPerMove: _, ...a }) => a);
    const threads = await scored(2);
    expect(threads[0]).toMatchObject({ failures: 0, failure: null });
    expect(threads).toEqual(await scored(0));
  });
});

import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.ts';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { PerfectAgent } from '../../agents/perfect.ts';
import { createAgent } from '../../agents/spec.ts';
import {
  applyAction,
  DEFAULT_RULES,
  legalActions,
  type Position,
  parsePosition,
  Random,
  type Rules,
  resolveRules,
} from '../../env/index.ts';
import { playGame } from '../../eval/game.ts';
import { Solver, solve } from '../../solve/index.ts';
import { bookEndgame } from '../solve/book-fixture.ts';
import { smallPositions } from '../solve/positions.ts';

/** Solving positions from the start: seconds each, minutes on a loaded machine. */
const TEST_MS = 600_000;
const STAYS = resolveRules({ captureSeedStays: true });
// Player 1 to move; under the default rules they lose whatever they do, the
// game's cycle notwithstanding; with captureSeedStays only going round saves
// them (docs/solver.md, "Endless play").
const ENDLESS = '0,0,0,1,0,1/1,0,0,1,1,1/21-21/1';

/** A perfect player with no book (the solver answers everything): the book's part is tested below. */
function perfect(rules: Rules = DEFAULT_RULES): PerfectAgent {
  return new PerfectAgent({
    name: 'perfect',
    rules,
    book: null,
    endgame: rules === DEFAULT_RULES ? bookEndgame() : null,
  });
}

async function play(
  players: readonly [Agent, Agent],
  start: Position,
  seed: number,
  rules: Rules = DEFAULT_RULES,
  maxPlies = 400,
) {
  return playGame({
    players,
    start,
    openingPlies: 0,
    rules,
    rngs: [Random.fromSeed(seed), Random.fromSeed(seed + 1000)],
    maxPlies,
  });
}

/** Seeded small positions by their exact value for the mover (only ones with a choice). */
function positionsByValue(): Record<'win' | 'draw' | 'loss', Position[]> {
  const out = { win: [] as Position[], draw: [] as Position[], loss: [] as Position[] };
  for (const p of smallPositions(45, 60, [8, 10, 12], DEFAULT_RULES, 3)) {
    const value = solve(p, { budget: { timeMs: 10_000 } }).value;
    if (value !== 'unknown') out[value].push(p);
  }
  return out;
}

describe('the perfect player', { timeout: TEST_MS }, () => {
  const byValue = positionsByValue();

  it('never plays a value-losing move: every move keeps the value solve proves', () => {
    expect(
      [byValue.win.length, byValue.draw.length, byValue.loss.length].every((n) => n >= 2),
    ).toBe(true);
    const agent = perfect();
    const rng = Random.fromSeed(3);
    for (const p of [...byValue.win, ...byValue.draw, ...byValue.loss]) {
      const solution = solve(p, { budget: { timeMs: 10_000 } });
      const choice = agent.choose(p, DEFAULT_RULES, rng);
      expect(solution.bestActions, p.toString()).toContain(choice.action);
      expect(choice.source).toBe('solver');
    }
  });

  it('wins a forced win and holds a draw at 24-24 against the solver-backed search, from either seat', async () => {
    const searcher = await createAgent('minimax:t=50ms,solve=1');
    for (const [value, positions] of [
      ['win', byValue.win.slice(0, 3)],
      ['draw', byValue.draw.slice(0, 3)],
    ] as const) {
      for (const [i, start] of positions.entries()) {
        const seat = start.toMove;
        const players: [Agent, Agent] = seat === 0 ? [perfect(), searcher] : [searcher, perfect()];
        const game = await play(players, start, i);
        expect(game.truncated).toBe(false);
        if (value === 'win') expect(game.winner).toBe(seat);
        else expect(game.scores).toEqual([24, 24]);
      }
    }
  });

  it('in a forced loss plays the move whose loss takes the longest proof', () => {
    const agent = perfect();
    let losses = 0;
    let differing = 0;
    // Above the endgame table's 16 seeds, where losing moves' proofs differ in depth.
    for (const p of smallPositions(45, 40, [20, 22], DEFAULT_RULES, 3)) {
      if (losses === 8) break;
      // A fresh solve to the end with the book's solver settings: the value and every move's proof depth.
      const fresh = new Solver({ rules: DEFAULT_RULES, tableBits: 20, endgame: bookEndgame() });
      const solution = fresh.solveState(p.stateView, { moves: true });
      if (solution.hi !== -1) continue;
      losses++;
      const choice = agent.choose(p, DEFAULT_RULES, Random.fromSeed(1));
      expect(choice.value).toBe(-1);
      const depths = legalActions(p).map((a) => solution.moveDepth[a] as number);
      if (new Set(depths).size > 1) differing++;
      expect(solution.moveDepth[choice.action], p.toString()).toBe(Math.max(...depths));
    }
    expect(losses).toBe(8);
    expect(differing).toBeGreaterThan(0);
  });

  it('in a draw plays the drawing move that leaves the opponent the most losing replies', () => {
    const agent = perfect();
    const solver = new Solver({ rules: DEFAULT_RULES, endgame: bookEndgame() });
    let chosen = 0;
    for (const p of byValue.draw) {
      const draws = solve(p).moves.filter((m) => m.value === 'draw');
      if (draws.length < 2) continue;
      const losingReplies = draws.map((m) => {
        const child = applyAction(p, m.action);
        if (legalActions(child).length === 0) return 0;
        const replies = solver.solveState(child.stateView, { moves: true });
        return legalActions(child).filter((a) => replies.moveHi[a] === -1).length;
      });
      const choice = agent.choose(p, DEFAULT_RULES, Random.fromSeed(1));
      const i = draws.findIndex((m) => m.action === choice.action);
      expect(losingReplies[i], p.toString()).toBe(Math.max(...losingReplies));
      chosen++;
    }
    expect(chosen).toBeGreaterThan(0);
  });

  it('wins a won position whose game can go round, and never leaves the cycle for a loss', async () => {
    // Default rules: player 0 wins; a value-keeping move alone could go round for ever.
    const start = applyAction(
      parsePosition(ENDLESS),
      legalActions(parsePosition(ENDLESS))[0] as number,
    );
    expect(solve(start).value).toBe('win');
    // Each of its moves is a move of the shortest proof: the game ends within the
    // proof's depth (a fresh proof without the table: its depth is in plies),
    // whoever the loser's longest losses and whatever the seed.
    const depth = new Solver({ rules: DEFAULT_RULES, tableBits: 16 }).solveState(start.stateView, {
      moves: false,
    }).depth;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const won = await play([perfect(), perfect()], start, seed);
      expect([seed, won.winner, won.plies <= depth]).toEqual([seed, 0, true]);
    }
    // captureSeedStays: player 1 keeps going round, never playing a proven loss.
    const endless = parsePosition(ENDLESS);
    const agent = perfect(STAYS);
    const choice = agent.choose(endless, STAYS, Random.fromSeed(1));
    expect(choice.value).toBeNull();
    const losing = solve(endless, { rules: STAYS })
      .moves.filter((m) => m.value === 'loss')
      .map((m) => m.action);
    expect(losing.length).toBeGreaterThan(0);
    expect(losing).not.toContain(choice.action);
    const game = await play([perfect(STAYS), perfect(STAYS)], endless, 1, STAYS, 120);
    expect([game.truncated, game.winner]).toEqual([true, null]);
  });

  it('breaks ties with the game’s seeded generator: the same seed, the same game', async () => {
    const starts = [...byValue.draw, ...byValue.win].slice(0, 4);
    const games = async (seed: number) =>
      Promise.all(starts.map(async (s) => (await play([perfect(), perfect()], s, seed)).actions));
    const first = await games(1);
    expect(await games(1)).toEqual(first);
    const others = await Promise.all([2, 3, 4, 5].map(games));
    expect(others.some((g) => JSON.stringify(g) !== JSON.stringify(first))).toBe(true);
  });

  it('reports its time per move and where its moves came from', () => {
    const agent = perfect();
    const p = byValue.win[0] as Position;
    agent.act(p, { legal: legalActions(p), rng: Random.fromSeed(1), rules: DEFAULT_RULES });
    expect(agent.stats).toMatchObject({ moves: 1, fromBook: 0, solved: 1 });
    expect(agent.msPerMove).toBeGreaterThan(0);
    expect(() => agent.choose(p, STAYS, Random.fromSeed(1))).toThrow(
      /^perfect was made for .*, not this game's captureSeedStays=true/,
    );
  });
});

describe('the perfect player past its book', { timeout: TEST_MS }, () => {
  it('thinks no longer than its cap: a solve cut short plays a legal move on proven bounds', () => {
    // The start under captureSeedStays, with no book or table, takes seconds to prove (docs/solver.md).
    const start = parsePosition('4,4,4,4,4,4/4,4,4,4,4,4/0-0/0');
    const capped = new PerfectAgent({
      name: 'perfect',
      rules: STAYS,
      book: null,
      endgame: null,
      moveCapMs: 1,
    });
    const choice = capped.choose(start, STAYS, Random.fromSeed(1));
    expect(choice.source).toBe('solver');
    expect(choice.value).toBeNull();
    expect(legalActions(start, STAYS)).toContain(choice.action);
  });
});

describe('perfect from the start', { timeout: TEST_MS }, () => {
  it('moving first, wins every game against the solver-backed searches', async () => {
    registerNetworkKinds();
    const start = parsePosition('4,4,4,4,4,4/4,4,4,4,4,4/0-0/0');
    const me = await createAgent('perfect');
    expect(me).toBeInstanceOf(PerfectAgent);
    for (const spec of ['minimax:t=50ms,solve=1', 'az:models/pretrained,t=50ms,solve=1']) {
      const opponent = await createAgent(spec);
      for (const seed of [1, 2]) {
        const game = await play([me, opponent], start, seed);
        expect([spec, seed, game.winner]).toEqual([spec, seed, 0]);
      }
      await opponent.close?.();
    }
    // The opening came from the book.
    expect((me as PerfectAgent).stats.fromBook).toBeGreaterThanOrEqual(4);
  });
});

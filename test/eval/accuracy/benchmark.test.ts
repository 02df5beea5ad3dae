import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../agents/agent.ts';
import { formatPosition, type Position } from '../../../env/index.ts';
import {
  type AccuracySet,
  readAccuracySet,
  VALUE_RANK,
} from '../../../eval/accuracy/accuracy-set.ts';
import { runAccuracyChunk } from '../../../eval/accuracy/chunk.ts';
import { sampleAccuracySet } from '../../../eval/accuracy/sample.ts';
import { scoreAnswers } from '../../../eval/accuracy/score.ts';
import { ACCURACY_SETS } from '../../../eval/accuracy/shipped-sets.ts';
import { Solver, valueWord } from '../../../solve/index.ts';

const set = readAccuracySet(ACCURACY_SETS.main as string);
// Positions with few seeds left on the board: the solver proves them in
// milliseconds without an endgame table, so the tests need none.
const small: AccuracySet = {
  ...set,
  positions: set.positions
    .filter((p) => {
      const board = p.position.split('/').slice(0, 2).join(',').split(',').map(Number);
      return board.reduce((a, b) => a + b, 0) <= 9;
    })
    .slice(0, 40),
};

/** Exact values of each legal move (VALUE_RANK: -1 loss .. 1 win), by the solver, not the set. */
function solvedMoves(solver: Solver, position: Position): Map<number, number> {
  solver.clear();
  const solution = solver.solveState(position.stateView, { nodes: 2_000_000, moves: true });
  if (!solution.complete) throw new Error(`not proven: ${formatPosition(position)}`);
  const moves = new Map<number, number>();
  for (let a = 0; a < 6; a++) {
    if ((solution.legalMask & (1 << a)) !== 0) moves.set(a, solution.moveLo[a] as number);
  }
  return moves;
}

/** An agent that solves each position and plays its best move (or, `worst`, its worst). */
function solvingAgent(worst: boolean): Agent {
  const solver = new Solver({ rules: set.rules, tableBits: 16 });
  return {
    name: worst ? 'worst' : 'best',
    act(position) {
      const moves = solvedMoves(solver, position);
      const pick = (worst ? Math.min : Math.max)(...moves.values());
      return [...moves].find(([, v]) => v === pick)?.[0] as number;
    },
  };
}

async function score(agent: Agent) {
  const answers = await runAccuracyChunk(
    {
      spec: agent.name,
      rules: set.rules,
      seed: 1,
      positions: small.positions.map((p, index) => ({ index, position: p.position })),
    },
    () => {},
    async () => agent,
  );
  return scoreAnswers(agent.name, small.positions, answers);
}

describe('the accuracy benchmark against the solver', () => {
  it('has enough small positions to test on', () => {
    expect(small.positions.length).toBe(40);
  });

  it('a sample of the shipped set re-solves to the values it records', () => {
    const solver = new Solver({ rules: set.rules, tableBits: 16 });
    for (const p of small.positions) {
      const moves = solvedMoves(solver, p.parsed);
      const recorded = p.moves.flatMap((v, a) => (v === null ? [] : [[a, VALUE_RANK[v]] as const]));
      expect([...moves], p.position).toEqual(recorded);
      expect(valueWord(Math.max(...moves.values())), p.position).toBe(p.value);
    }
  });

  it("scores 0 errors for an agent that plays the solver's best move", async () => {
    const result = await score(solvingAgent(false));
    expect(result.overall.positions).toBe(small.positions.length);
    expect(result.overall.errors).toBe(0);
    expect(result.overall.wonThrown).toBe(0);
    expect(result.overall.ci[0]).toBe(0);
  });

  it('scores 100% for an agent that always plays the worst move, and every won position thrown away', async () => {
    const result = await score(solvingAgent(true));
    expect(result.overall.errors).toBe(small.positions.length);
    expect(result.overall.rate).toBe(1);
    const won = small.positions.filter((p) => p.value === 'win').length;
    expect(won).toBeGreaterThan(0);
    expect(result.overall.won).toBe(won);
    expect(result.overall.wonThrown).toBe(won);
    const byPhase = Object.values(result.phases).reduce((a, c) => a + c.errors, 0);
    expect(byPhase).toBe(small.positions.length);
  });

  it('counts an agent that throws as failing, with the reason', async () => {
    const failing: Agent = {
      name: 'failing',
      act() {
        throw new Error('no move today');
      },
    };
    const result = await score(failing);
    expect(result.overall.errors).toBe(small.positions.length);
    expect(result.failures).toBe(small.positions.length);
    expect(result.failure).toBe('no move today');
  });
});

describe('sampleAccuracySet', () => {
  it('gives the same positions for the same seed, in the set order, and others for another seed', () => {
    const a = sampleAccuracySet(set, 50, 'x').positions.map((p) => p.position);
    const b = sampleAccuracySet(set, 50, 'x').positions.map((p) => p.position);
    const c = sampleAccuracySet(set, 50, 'y').positions.map((p) => p.position);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(50);
    expect(c).not.toEqual(a);
    const order = set.positions.map((p) => p.position);
    expect(a.map((n) => order.indexOf(n))).toEqual(
      [...a.map((n) => order.indexOf(n))].sort((x, y) => x - y),
    );
  });

  it('gives the whole set when asked for more than it holds, and refuses a count below 1', () => {
    expect(sampleAccuracySet(small, 1000, 'x').positions).toHaveLength(small.positions.length);
    expect(() => sampleAccuracySet(set, 0, 'x')).toThrow(/positive whole number/);
  });
});

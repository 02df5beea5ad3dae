import { wilsonInterval } from '../stats.ts';
import type { SetPosition } from './accuracy-set.ts';
import type { AccuracyAnswer } from './chunk.ts';
import { PHASES, type Phase } from './phases.ts';

/** How an agent did on some positions of a set. */
export interface AccuracyCell {
  readonly positions: number;
  /** Moves that lose value: their exact value is below the position's (a failure to move counts). */
  readonly errors: number;
  /** errors / positions (NaN without positions). */
  readonly rate: number;
  /** 95% Wilson interval of the rate. */
  readonly ci: readonly [number, number];
  /** Positions won for the player to move. */
  readonly won: number;
  /** Of those, moves that throw the win away (to a draw or a loss). */
  readonly wonThrown: number;
}

/** How often the sign of the agent's value estimate is the exact result's. */
export interface ValueAccuracy {
  /** Won and lost positions (drawn ones are left out: an estimate is never exactly 0). */
  readonly positions: number;
  readonly correct: number;
  readonly rate: number;
  readonly ci: readonly [number, number];
}

/** An agent's result on a set. */
export interface AgentAccuracy {
  readonly agent: string;
  readonly overall: AccuracyCell;
  readonly phases: Readonly<Record<Phase, AccuracyCell>>;
  /** Positions where it gave no legal move (counted as errors), and one reason. */
  readonly failures: number;
  readonly failure: string | null;
  /** Its value estimates' signs, for agents that give one (networks); else null. */
  readonly value: ValueAccuracy | null;
  /** Mean milliseconds per move. */
  readonly msPerMove: number;
}

class Tally {
  positions = 0;
  errors = 0;
  won = 0;
  wonThrown = 0;

  add(position: SetPosition, action: number): void {
    const lost = action < 0 || (position.losingMask & (1 << action)) !== 0;
    this.positions++;
    if (lost) this.errors++;
    if (position.value === 'win') {
      this.won++;
      if (lost) this.wonThrown++;
    }
  }

  cell(): AccuracyCell {
    const { positions, errors, won, wonThrown } = this;
    return {
      positions,
      errors,
      rate: positions > 0 ? errors / positions : Number.NaN,
      ci: wilsonInterval(errors, positions),
      won,
      wonThrown,
    };
  }
}

/**
 * Scores an agent's moves on a set's positions: `actions[i]` is its move in
 * `positions[i]` (-1: none), `values[i]` its value estimate there (or no
 * `values` at all for an agent without one).
 */
export function scoreMoves(
  agent: string,
  positions: readonly SetPosition[],
  actions: ArrayLike<number>,
  values: ArrayLike<number> | null,
  extra: { readonly msPerMove?: number; readonly failure?: string | null } = {},
): AgentAccuracy {
  if (
    actions.length !== positions.length ||
    (values !== null && values.length !== positions.length)
  ) {
    throw new RangeError(
      `${positions.length} positions but ${actions.length} moves${values === null ? '' : ` and ${values.length} values`}`,
    );
  }
  const overall = new Tally();
  const byPhase = new Map<Phase, Tally>(PHASES.map((p) => [p, new Tally()]));
  let failures = 0;
  let decisive = 0;
  let correct = 0;
  positions.forEach((position, i) => {
    const action = actions[i] as number;
    if (action < 0) failures++;
    overall.add(position, action);
    byPhase.get(position.phase)?.add(position, action);
    const v = values?.[i];
    if (v !== undefined && position.value !== 'draw') {
      decisive++;
      const saysWin = v > 0;
      if (v !== 0 && saysWin === (position.value === 'win')) correct++;
    }
  });
  return {
    agent,
    overall: overall.cell(),
    phases: Object.fromEntries(PHASES.map((p) => [p, (byPhase.get(p) as Tally).cell()])) as Record<
      Phase,
      AccuracyCell
    >,
    failures,
    failure: extra.failure ?? null,
    value:
      values === null
        ? null
        : {
            positions: decisive,
            correct,
            rate: decisive > 0 ? correct / decisive : Number.NaN,
            ci: wilsonInterval(correct, decisive),
          },
    msPerMove: extra.msPerMove ?? Number.NaN,
  };
}

/** Scores the answers of a benchmark run (one per position, any order). */
export function scoreAnswers(
  agent: string,
  positions: readonly SetPosition[],
  answers: readonly AccuracyAnswer[],
): AgentAccuracy {
  const byIndex = new Map(answers.map((a) => [a.index, a]));
  const ordered = positions.map((_, i) => {
    const answer = byIndex.get(i);
    if (answer === undefined) throw new RangeError(`no answer of ${agent} for position ${i}`);
    return answer;
  });
  const withValues = ordered.every((a) => a.value !== null);
  const ms = ordered.reduce((sum, a) => sum + a.ms, 0);
  return scoreMoves(
    agent,
    positions,
    ordered.map((a) => a.action),
    withValues ? ordered.map((a) => a.value as number) : null,
    {
      msPerMove: ordered.length > 0 ? ms / ordered.length : Number.NaN,
      failure: ordered.find((a) => a.failure !== undefined)?.failure ?? null,
    },
  );
}

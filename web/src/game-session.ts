/**
 * One game in the page, without any DOM: whose turn, the legal moves, every
 * move played (with its laps, for the relay view and the move log) and the
 * result. The page renders it; tests can drive it directly.
 */
import {
  formatPosition,
  initialPosition,
  type Lap,
  legalActions,
  type Outcome,
  outcome,
  type Player,
  type Position,
  playMove,
  type Rules,
  traceMove,
} from '../../env/index.ts';
import type { Choice, ComputerPlayer } from './players.ts';

export interface MoveRecord {
  /** 1 for the first move of the game. */
  readonly ply: number;
  readonly player: Player;
  readonly by: 'human' | 'computer';
  readonly action: number;
  /** The pit lifted (0..11). */
  readonly pit: number;
  /** Notation of the position before and after the move. */
  readonly before: string;
  readonly after: string;
  readonly laps: readonly Lap[];
  readonly captured: number;
  readonly capturedFrom: number | null;
  /** Pits and stores after the move (after any capture). */
  readonly position: Position;
  /** The computer's reasons, when it has any (the policy's probabilities and value). */
  readonly choice?: Choice;
}

export const PLAYER_NAMES = ['South', 'North'] as const;

export class GameSession {
  #position: Position = initialPosition();
  readonly moves: MoveRecord[] = [];

  constructor(
    /** The side the person plays. */
    readonly human: Player,
    readonly computer: ComputerPlayer,
    readonly rules: Rules,
  ) {}

  get position(): Position {
    return this.#position;
  }

  /** Final scores and winner once the game is over, else null. */
  get result(): Outcome | null {
    return outcome(this.#position, this.rules);
  }

  get legal(): number[] {
    return legalActions(this.#position, this.rules);
  }

  get humanToMove(): boolean {
    return this.result === null && this.#position.toMove === this.human;
  }

  get computerToMove(): boolean {
    return this.result === null && this.#position.toMove !== this.human;
  }

  /** Plays the person's action; throws IllegalActionError (with the reason) if it is not legal. */
  playHuman(action: number): MoveRecord {
    if (!this.humanToMove) throw new Error('it is not your turn');
    return this.#play(action, 'human', undefined);
  }

  /** Lets the computer choose and play its move. */
  playComputer(): MoveRecord {
    if (!this.computerToMove) throw new Error('it is not the computer’s turn');
    const choice = this.computer.choose(this.#position);
    return this.#play(choice.action, 'computer', choice);
  }

  #play(action: number, by: MoveRecord['by'], choice: Choice | undefined): MoveRecord {
    const before = this.#position;
    const laps = traceMove(before, action, this.rules);
    const { position, report } = playMove(before, action, this.rules);
    this.#position = position;
    const record: MoveRecord = {
      ply: this.moves.length + 1,
      player: report.player,
      by,
      action,
      pit: report.pit,
      before: formatPosition(before),
      after: formatPosition(position),
      laps,
      captured: report.captured,
      capturedFrom: report.capturedFrom,
      position,
      ...(choice ? { choice } : {}),
    };
    this.moves.push(record);
    return record;
  }
}

/** One line of the move log, e.g. "North (policy): pit 8, 2 laps, captured 3 from pit 2". */
export function describeMove(move: MoveRecord, computerName: string): string {
  const who = `${PLAYER_NAMES[move.player]} (${move.by === 'human' ? 'you' : computerName})`;
  const laps = `${move.laps.length} lap${move.laps.length === 1 ? '' : 's'}`;
  const capture =
    move.captured > 0 ? `, captured ${move.captured} from pit ${move.capturedFrom}` : '';
  const why =
    move.choice?.probabilities !== undefined
      ? ` [p=${(move.choice.probabilities[move.action] ?? 0).toFixed(2)}, value ${formatSigned(move.choice.value ?? 0)}]`
      : '';
  return `${who}: pit ${move.pit}, ${laps}${capture}${why}`;
}

/** One line of the relay view, e.g. "Lap 2: 5 seeds from pit 4, last one in pit 9". */
export function describeLap(lap: Lap, index: number): string {
  return `Lap ${index + 1}: ${lap.seeds} seed${lap.seeds === 1 ? '' : 's'} from pit ${lap.from}, last one in pit ${lap.end}`;
}

export function formatSigned(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

/** "South 26 – 22 North: you win!" from the person's side. */
export function describeResult(result: Outcome, human: Player): string {
  const [s0, s1] = result.scores;
  const verdict =
    result.winner === null ? 'a draw' : result.winner === human ? 'you win!' : 'you lose.';
  return `Final score: South ${s0} – ${s1} North: ${verdict}`;
}

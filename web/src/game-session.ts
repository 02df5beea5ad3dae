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
  async playComputer(): Promise<MoveRecord> {
    if (!this.computerToMove) throw new Error('it is not the computer’s turn');
    const position = this.#position;
    const choice = await this.computer.choose(position);
    if (this.#position !== position) throw new Error('the game changed while the computer thought');
    return this.#play(choice.action, 'computer', choice);
  }

  /**
   * Takes back the person's last move and every computer reply after it, so
   * it is the person's turn again; false when the person has not moved yet.
   */
  undo(): boolean {
    const last = this.moves.findLastIndex((move) => move.by === 'human');
    if (last < 0) return false;
    this.moves.length = last;
    this.#position = this.moves.at(-1)?.position ?? initialPosition();
    return true;
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

/**
 * The page's one name for a pit: the row's owner and the action that lifts it,
 * S0..S5 for South's pits 0..5 and N0..N5 for North's pits 6..11, so "N2" is
 * North's action 2 (engine pit 8), the number `ayoayo play` asks for.
 */
export function pitLabel(pit: number): string {
  return `${pit < 6 ? 'S' : 'N'}${pit % 6}`;
}

/** One line of the move log, e.g. "North (policy): action 2 (N2), 2 laps, captured 3 from S2". */
export function describeMove(move: MoveRecord, computerName: string): string {
  const who = `${PLAYER_NAMES[move.player]} (${move.by === 'human' ? 'you' : computerName})`;
  const laps = `${move.laps.length} lap${move.laps.length === 1 ? '' : 's'}`;
  const capture =
    move.captured > 0 && move.capturedFrom !== null
      ? `, captured ${move.captured} from ${pitLabel(move.capturedFrom)}`
      : '';
  const why =
    move.choice?.probabilities !== undefined
      ? ` [p=${(move.choice.probabilities[move.action] ?? 0).toFixed(2)}, value ${formatSigned(move.choice.value ?? 0)}]`
      : '';
  return `${who}: action ${move.action} (${pitLabel(move.pit)}), ${laps}${capture}${why}`;
}

/** One line of the relay view, e.g. "Lap 2: 5 seeds from S4, last one in N3". */
export function describeLap(lap: Lap, index: number): string {
  return `Lap ${index + 1}: ${lap.seeds} seed${lap.seeds === 1 ? '' : 's'} from ${pitLabel(lap.from)}, last one in ${pitLabel(lap.end)}`;
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

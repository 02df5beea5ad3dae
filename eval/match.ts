import type { Agent } from '../agents/agent.ts';
import { Random, type Rules, type RulesInput, resolveRules, SEED_RANGE } from '../env/index.ts';
import { DEFAULT_MAX_PLIES, type GameResult, playGame } from './game.ts';
import { DEFAULT_OPENING_PLIES, openingFor } from './openings.ts';
import { wilsonInterval } from './stats.ts';

/** One game of a pairing, as written to games.csv. */
export interface GameRecord extends GameResult {
  /** Index of the pairing in its tournament (0 in a single match). */
  readonly pairing: number;
  /** Index of the game within its pairing. */
  readonly game: number;
  /** The pairing's agents; results are counted from `a`'s side. */
  readonly a: string;
  readonly b: string;
  /** The seat `a` played. */
  readonly aSeat: 0 | 1;
  /** Agents by seat: [player 0, player 1]. */
  readonly players: readonly [string, string];
  readonly opening: number;
  readonly openingMoves: readonly number[];
}

/** Wins, draws and losses of a pairing, from `a`'s side. */
export interface PairingResult {
  readonly a: string;
  readonly b: string;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  /** (wins + draws / 2) / games. */
  readonly score: number;
  /** 95% Wilson interval of the score (see stats.ts). */
  readonly ci: readonly [number, number];
  /** Games lost by forfeit: by a, by b. */
  readonly forfeits: { readonly a: number; readonly b: number };
  /** Games stopped at the ply cap (scored as draws). */
  readonly truncated: number;
}

export interface MatchResult extends PairingResult {
  readonly records: readonly GameRecord[];
}

/** How the games of a pairing are set up. */
export interface MatchSettings {
  readonly seed: number;
  readonly openingPlies: number;
  readonly rules: Rules;
  readonly maxPlies: number;
}

/** A game to play: opening `floor(game / 2)`, with `a` as player 0 in even games. */
export interface ScheduledGame {
  readonly game: number;
  readonly opening: number;
  readonly aSeat: 0 | 1;
}

/**
 * Most games a pairing of a tournament plays: every game's record is kept for
 * games.csv, and beyond this a pairing's would not fit in memory.
 */
export const MAX_GAMES_PER_PAIRING = 1_000_000;

/** The games of a pairing: each opening twice, once from each seat. */
export function scheduleGames(games: number): ScheduledGame[] {
  return Array.from({ length: games }, (_, game) => ({
    game,
    opening: Math.floor(game / 2),
    aSeat: (game % 2) as 0 | 1,
  }));
}

/** The pairing's identity, as it goes into records. */
export interface PairingLabels {
  readonly pairing: number;
  readonly a: string;
  readonly b: string;
}

/**
 * The generators of a game's two sides, from the tournament seed, the pairing's
 * index in the schedule and the game's index in the pairing: never from agent
 * names or spec text (two spellings of one agent, or two training runs that
 * differ only in name, play the same games), and never from which chunk or
 * worker plays the game.
 */
export function gameRandoms(seed: number, pairing: number, game: number): { a: Random; b: Random } {
  const key = `${seed}|${pairing}|${game}`;
  return { a: Random.fromSeed(`${key}|a`), b: Random.fromSeed(`${key}|b`) };
}

/** Plays one scheduled game of a pairing, its generators from `gameRandoms`. */
export async function playScheduledGame(
  agents: { readonly a: Agent; readonly b: Agent },
  labels: PairingLabels,
  scheduled: ScheduledGame,
  settings: MatchSettings,
): Promise<GameRecord> {
  const opening = openingFor(
    settings.seed,
    scheduled.opening,
    settings.openingPlies,
    settings.rules,
  );
  const { a: rngA, b: rngB } = gameRandoms(settings.seed, labels.pairing, scheduled.game);
  const aFirst = scheduled.aSeat === 0;
  const result = await playGame({
    players: aFirst ? [agents.a, agents.b] : [agents.b, agents.a],
    start: opening.position,
    openingPlies: opening.moves.length,
    rules: settings.rules,
    rngs: aFirst ? [rngA, rngB] : [rngB, rngA],
    maxPlies: settings.maxPlies,
  });
  return {
    ...result,
    pairing: labels.pairing,
    game: scheduled.game,
    a: labels.a,
    b: labels.b,
    aSeat: scheduled.aSeat,
    players: aFirst ? [labels.a, labels.b] : [labels.b, labels.a],
    opening: opening.index,
    openingMoves: opening.moves,
  };
}

/** Counts a pairing's records from `a`'s side. */
export function summarizePairing(
  a: string,
  b: string,
  records: readonly GameRecord[],
): PairingResult {
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let forfeitsA = 0;
  let forfeitsB = 0;
  let truncated = 0;
  for (const r of records) {
    if (r.winner === null) draws++;
    else if (r.winner === r.aSeat) wins++;
    else losses++;
    if (r.forfeit !== null) {
      if (r.forfeit.seat === r.aSeat) forfeitsA++;
      else forfeitsB++;
    }
    if (r.truncated) truncated++;
  }
  const games = records.length;
  const points = wins + draws / 2;
  return {
    a,
    b,
    games,
    wins,
    draws,
    losses,
    score: games > 0 ? points / games : Number.NaN,
    ci: wilsonInterval(points, games),
    forfeits: { a: forfeitsA, b: forfeitsB },
    truncated,
  };
}

export interface PlayMatchOptions {
  readonly a: Agent;
  readonly b: Agent;
  /** Games to play; half with `a` as player 0 (the odd one out, if any, too). */
  readonly games: number;
  readonly seed?: number;
  /** Random plies before the agents play (default 4). */
  readonly openingPlies?: number;
  readonly rules?: RulesInput;
  /** Plies after which a game is a draw (default 500). */
  readonly maxPlies?: number;
  /** Called after each game. */
  readonly onGame?: (record: GameRecord, done: number, total: number) => void;
}

/**
 * Plays `games` games between two agents in this thread (the trainer's way to
 * evaluate its current policy) and returns the result from `a`'s side with
 * every game's record. The agents are not closed.
 */
export async function playMatch(options: PlayMatchOptions): Promise<MatchResult> {
  const settings = matchSettings(options);
  if (!Number.isInteger(options.games) || options.games < 1) {
    throw new RangeError(`games must be a positive integer, got ${options.games}`);
  }
  const labels = { pairing: 0, a: options.a.name, b: options.b.name };
  const records: GameRecord[] = [];
  for (const scheduled of scheduleGames(options.games)) {
    const record = await playScheduledGame(options, labels, scheduled, settings);
    records.push(record);
    options.onGame?.(record, records.length, options.games);
  }
  return { ...summarizePairing(labels.a, labels.b, records), records };
}

/** Settings with defaults filled in and checked. */
export function matchSettings(options: {
  readonly seed?: number;
  readonly openingPlies?: number;
  readonly rules?: RulesInput;
  readonly maxPlies?: number;
}): MatchSettings {
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be ${SEED_RANGE}, got ${seed}`);
  const openingPlies = options.openingPlies ?? DEFAULT_OPENING_PLIES;
  if (!Number.isInteger(openingPlies) || openingPlies < 0 || openingPlies > 40) {
    throw new RangeError(`opening plies must be an integer in 0..40, got ${openingPlies}`);
  }
  const maxPlies = options.maxPlies ?? DEFAULT_MAX_PLIES;
  if (!Number.isInteger(maxPlies) || maxPlies < 1) {
    throw new RangeError(`max plies must be a positive integer, got ${maxPlies}`);
  }
  return { seed, openingPlies, rules: resolveRules(options.rules), maxPlies };
}

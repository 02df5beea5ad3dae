import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createObjectCsvStringifier } from 'csv-writer';
import { writeFileAtomic } from '../files/atomic-write.ts';
import type { GameRecord, PairingResult } from './match.ts';
import type { GameErrors } from './review-job.ts';
import { agentReviews, reviewCells, reviewColumns } from './review-report.ts';
import type { TournamentResult } from './tournament.ts';

const pct = (x: number): string => (Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}%`);
const elo = (x: number): string => (Number.isNaN(x) ? '-' : String(Math.round(x)));

/** A text table: left-aligns the first column, right-aligns the others. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The pairings table and the Elo ladder, as printed by `ayoayo eval`. */
export function formatTournament(result: TournamentResult): string {
  const pairings = table(
    ['pairing', 'games', 'won', 'drawn', 'lost', 'score', '95% CI'],
    result.pairings.map((p) => [
      `${p.a} vs ${p.b}`,
      String(p.games),
      String(p.wins),
      String(p.draws),
      String(p.losses),
      pct(p.score),
      `${pct(p.ci[0])}-${pct(p.ci[1])}`,
    ]),
  );
  const ladder = table(
    ['agent', 'Elo', 'games', 'score'],
    result.ratings.map((r) => [r.agent, elo(r.elo), String(r.games), pct(r.score)]),
  );
  const notes = [
    `Won/drawn/lost and score are from the first agent's side; score = (won + drawn/2) / games.`,
    `Elo: Bradley-Terry maximum likelihood over all games, ${result.anchor} = 0.`,
  ];
  const forfeits = result.games.filter((g) => g.forfeit !== null).length;
  const truncated = result.games.filter((g) => g.truncated).length;
  if (forfeits > 0) {
    const reasons = [
      ...new Set(result.games.flatMap((g) => (g.forfeit !== null ? [g.forfeit.reason] : []))),
    ];
    notes.push(`${forfeits} game(s) lost by forfeit, e.g.: ${reasons.slice(0, 3).join(' / ')}`);
  }
  if (truncated > 0)
    notes.push(
      `${truncated} game(s) reached ${result.settings.maxPlies} plies and were scored as draws.`,
    );
  return `${pairings}\n\n${ladder}\n\n${notes.join('\n')}\n`;
}

const gameColumns = [
  ['pairing', 'pairing'],
  ['game', 'game'],
  ['player0', 'player0'],
  ['player1', 'player1'],
  ['opening', 'opening'],
  ['openingMoves', 'opening_moves'],
  ['score0', 'score0'],
  ['score1', 'score1'],
  ['winner', 'winner'],
  ['plies', 'plies'],
  ['seconds', 'seconds'],
  ['truncated', 'truncated'],
  ['forfeit', 'forfeit'],
] as const;

/** games.csv rows: one per game; winner is 0, 1 or `draw`. */
export function gameRows(
  games: readonly GameRecord[],
): Record<(typeof gameColumns)[number][0], string | number | boolean>[] {
  return games.map((g) => ({
    pairing: g.pairing,
    game: g.game,
    player0: g.players[0],
    player1: g.players[1],
    opening: g.opening,
    openingMoves: g.openingMoves.join(' '),
    score0: g.scores[0],
    score1: g.scores[1],
    winner: g.winner === null ? 'draw' : g.winner,
    plies: g.plies,
    seconds: Number(g.seconds.toFixed(4)),
    truncated: g.truncated,
    forfeit: g.forfeit === null ? '' : `player ${g.forfeit.seat}: ${g.forfeit.reason}`,
  }));
}

const summaryColumns = [
  ['a', 'agent_a'],
  ['b', 'agent_b'],
  ['games', 'games'],
  ['wins', 'wins_a'],
  ['draws', 'draws'],
  ['losses', 'losses_a'],
  ['score', 'score_a'],
  ['ciLow', 'ci95_low'],
  ['ciHigh', 'ci95_high'],
  ['forfeitsA', 'forfeits_a'],
  ['forfeitsB', 'forfeits_b'],
  ['truncated', 'truncated'],
  ['eloA', 'elo_a'],
  ['eloB', 'elo_b'],
] as const;

/** summary.csv rows: one per pairing, with both agents' Elo. */
export function summaryRows(
  result: TournamentResult,
): Record<(typeof summaryColumns)[number][0], string | number>[] {
  const ratings = new Map(result.ratings.map((r) => [r.agent, r.elo]));
  const round = (x: number, digits: number): number | string =>
    Number.isNaN(x) ? '' : Number(x.toFixed(digits));
  return result.pairings.map((p: PairingResult) => ({
    a: p.a,
    b: p.b,
    games: p.games,
    wins: p.wins,
    draws: p.draws,
    losses: p.losses,
    score: round(p.score, 4),
    ciLow: round(p.ci[0], 4),
    ciHigh: round(p.ci[1], 4),
    forfeitsA: p.forfeits.a,
    forfeitsB: p.forfeits.b,
    truncated: p.truncated,
    eloA: round(ratings.get(p.a) ?? Number.NaN, 1),
    eloB: round(ratings.get(p.b) ?? Number.NaN, 1),
  }));
}

/** ratings.csv rows: the Elo ladder, highest first. */
export function ratingRows(result: TournamentResult): Record<string, string | number>[] {
  return result.ratings.map((r, i) => ({
    rank: i + 1,
    agent: r.agent,
    elo: Number.isNaN(r.elo) ? '' : Number(r.elo.toFixed(1)),
    games: r.games,
    score: Number.isNaN(r.score) ? '' : Number(r.score.toFixed(4)),
  }));
}

const ratingColumns = [
  ['rank', 'rank'],
  ['agent', 'agent'],
  ['elo', 'elo'],
  ['games', 'games'],
  ['score', 'score'],
] as const;

/** A CSV text (csv-writer) of `rows`, with the columns as [field, title] pairs; ends with a newline. */
export function csv(
  columns: readonly (readonly [string, string])[],
  rows: Record<string, string | number | boolean>[],
): string {
  const stringifier = createObjectCsvStringifier({
    header: columns.map(([id, title]) => ({ id, title })),
  });
  const text = (stringifier.getHeaderString() ?? '') + stringifier.stringifyRecords(rows);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * The whole result as plain JSON (settings, pairings, ratings, games), with
 * each game's review (`eval --review`) as its `review` where given.
 */
export function tournamentJson(result: TournamentResult, reviews?: readonly GameErrors[]): string {
  const shown =
    reviews === undefined
      ? result
      : { ...result, games: result.games.map((g, i) => ({ ...g, review: reviews[i] })) };
  return `${JSON.stringify(shown, (_key, value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? null : value), 2)}\n`;
}

/**
 * Writes games.csv, summary.csv, ratings.csv and results.json into `dir` (created if needed),
 * each atomically; with the games' `reviews`, games.csv has their columns
 * (review-report.ts) and results.json each game's review. Returns the paths written.
 */
export function writeTournament(
  dir: string,
  result: TournamentResult,
  reviews?: readonly GameErrors[],
): string[] {
  mkdirSync(dir, { recursive: true });
  const rows = gameRows(result.games);
  const games =
    reviews === undefined
      ? csv(gameColumns, rows)
      : csv(
          [...gameColumns, ...reviewColumns],
          rows.map((row, i) => ({ ...row, ...reviewCells(reviews[i] as GameErrors) })),
        );
  const files: [string, string][] = [
    ['games.csv', games],
    ['summary.csv', csv(summaryColumns, summaryRows(result))],
    ['ratings.csv', csv(ratingColumns, ratingRows(result))],
    ['results.json', tournamentJson(result, reviews)],
  ];
  return files.map(([name, content]) => {
    const path = join(dir, name);
    writeFileAtomic(path, content);
    return path;
  });
}

/** The review's table, as printed by `ayoayo eval --review`. */
export function formatReviews(
  games: readonly GameRecord[],
  reviews: readonly GameErrors[],
): string {
  const rows = agentReviews(games, reviews).map((r) => [
    r.agent,
    String(r.moves),
    String(r.errors),
    r.moves > 0 ? `${((r.errors / r.moves) * 100).toFixed(1)}%` : '-',
    String(r.undecided),
  ]);
  return `${table(['agent', 'moves', 'value-losing', 'share', 'undecided'], rows)}\n\nReviewed against exact values: value-losing moves lose the position's proven value; undecided ones were not proven within the budget; with --out, games.csv lists each game's plies.\n`;
}

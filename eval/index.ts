/**
 * Evaluation: games between agents, matches, tournaments, ratings and their
 * reports; the solver's endgame tables, cached on disk (loadEndgame).
 */

export { gamesProgressBar, type ProgressBar } from '../display/progress.ts';
export {
  checkFolderUnlocked,
  type FolderLock,
  FolderLockError,
  type LockHolder,
  lockFolder,
} from '../files/folder-lock.ts';
export {
  type EndgameCacheOptions,
  endgamePath,
  loadEndgame,
} from '../solve/endgame/cache/table-cache.ts';
export { type EloOptions, fitElo, type PairingScore } from './elo.ts';
export { DEFAULT_MAX_PLIES, type GameResult, type GameSetup, playGame } from './game.ts';
export {
  type GameRecord,
  type MatchResult,
  type PairingResult,
  type PlayMatchOptions,
  playMatch,
  summarizePairing,
} from './match.ts';
export { DEFAULT_OPENING_PLIES, type Opening, openingFor } from './openings.ts';
export { formatTournament, tournamentJson, writeTournament } from './report.ts';
export { wilsonInterval } from './stats.ts';
export {
  planPairings,
  type Rating,
  runTournament,
  type TournamentOptions,
  type TournamentResult,
} from './tournament.ts';

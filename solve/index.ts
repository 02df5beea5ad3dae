/**
 * The exact solver (docs/solver.md): proven win/draw/loss values of positions
 * and of their moves. `solve` is the validated entry; `Solver` the fast path
 * on engine states for callers that solve many positions.
 */
export {
  buildEndgame,
  ENDGAME_VERSION,
  type EndgameValues,
  endgameOffsets,
  NO_LOWER,
  NO_UPPER,
} from './endgame/build.ts';
export {
  checkEndgame,
  DEFAULT_CHECK_SAMPLES,
  DEFAULT_CHECK_SEED,
  type EndgameCheckOptions,
} from './endgame/check.ts';
export { decodeEndgame, EndgameFileError, encodeEndgame } from './endgame/file.ts';
export {
  DEFAULT_SOLVE_MS,
  type ResolvedSolveOptions,
  resolveSolveOptions,
  type SolveBudget,
  type SolveOptions,
  SolveOptionsError,
} from './options.ts';
export {
  type ExactValues,
  GameMovesError,
  type GameReview,
  gamePositions,
  lostValue,
  MAX_REVIEW_MOVES,
  type MoveValues,
  type PlayerReview,
  parseMoveList,
  type ReviewedMove,
  type ReviewInput,
  reviewGame,
  type SolverExactValuesOptions,
  solverExactValues,
} from './review.ts';
export { type Budget, MAX_DEPTH } from './search.ts';
export { describeSolution, type MoveValue, type Solution, solve, solveAll } from './solve.ts';
export {
  type SolveLimits,
  Solver,
  type SolverOptions,
  type StateSolution,
} from './solver.ts';
export { DEFAULT_TABLE_BITS, MAX_TABLE_BITS, ProofTable } from './table.ts';
export {
  type BoundValue,
  DRAW,
  type GameValue,
  gameValue,
  LOSS,
  signValue,
  type Value,
  valueWord,
  WIN,
} from './value.ts';

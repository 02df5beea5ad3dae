/**
 * The errors train/ reports for a user's mistake, told apart from a bug by
 * their class. Free of imports so the CLI can recognise them cheaply.
 */

/** An invalid training config: zod issues, a forbidden key, or a setting `--resume` cannot change. */
export class TrainConfigError extends Error {
  override name = 'TrainConfigError';
}

/** Why a run folder cannot be used as asked. */
export type RunFolderReason = 'has-checkpoints' | 'not-a-folder-name' | 'not-a-run';

/** A run folder that cannot be trained in or deleted as asked; nothing in it is touched. */
export class RunFolderError extends Error {
  override name = 'RunFolderError';
  constructor(
    readonly reason: RunFolderReason,
    message: string,
  ) {
    super(message);
  }
}

/** Training stopped at a non-finite loss or weight; the last good checkpoint is kept. */
export class TrainingDivergedError extends Error {
  override name = 'TrainingDivergedError';
  constructor(
    readonly iteration: number,
    message: string,
  ) {
    super(message);
  }
}

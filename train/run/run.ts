import type { JobFiles } from '../../agents/spec.ts';
import type { Learner } from '../learner.ts';
import type { TrainConfig } from '../settings/schema.ts';
import type { RunPaths } from './paths.ts';
import type { RunState } from './run-state.ts';

/** Training time of the run, counting earlier processes of a resumed run. */
export class RunClock {
  readonly #start = performance.now();
  readonly #before: number;

  constructor(
    elapsedBefore: number,
    private readonly limitMinutes: number | null,
  ) {
    this.#before = elapsedBefore;
  }

  seconds(): number {
    return this.#before + (performance.now() - this.#start) / 1000;
  }

  timeUp(): boolean {
    return this.limitMinutes !== null && this.seconds() >= this.limitMinutes * 60;
  }
}

/** What the loop works on; `state` changes as it goes. */
export interface Run {
  readonly config: TrainConfig;
  readonly paths: RunPaths;
  readonly learner: Learner;
  readonly state: RunState;
  readonly clock: RunClock;
  readonly workers: number;
  /** A queue job's files, the only ones its baselines may read (see TrainOptions.files). */
  readonly files?: JobFiles;
}

/** Why the training loop ended. */
export type LoopEnd = 'done' | 'time-limit' | 'stop-after';

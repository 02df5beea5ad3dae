import type { Random } from '../../env/random.ts';
import { MlpRunner, type MlpWeights } from '../../models/mlp-runner.ts';

export interface Snapshot {
  readonly iteration: number;
  /** Where the snapshot's policy file lives (saved with the run, reloaded on resume). */
  readonly path: string;
  readonly runner: MlpRunner;
}

/**
 * Earlier versions of the policy that the learner plays against, so that it
 * keeps beating the strategies it has already left behind (a simple league).
 * Oldest snapshots drop out first.
 */
export class OpponentPool {
  private readonly snapshots: Snapshot[] = [];

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.snapshots.length;
  }

  add(iteration: number, path: string, weights: MlpWeights): void {
    this.snapshots.push({ iteration, path, runner: new MlpRunner(weights) });
    while (this.snapshots.length > this.capacity) this.snapshots.shift();
  }

  get(index: number): Snapshot {
    const s = this.snapshots[index];
    if (s === undefined)
      throw new Error(`no snapshot ${index} in a pool of ${this.snapshots.length}`);
    return s;
  }

  pickIndex(rng: Random): number {
    return rng.int(this.snapshots.length);
  }

  entries(): readonly Snapshot[] {
    return this.snapshots;
  }
}

import type { Random } from '../../env/random.ts';
import type { InferenceEngine, NetworkInference } from '../../models/inference/inference-engine.ts';
import { type ForwardPass, type MlpWeights, plainForward } from '../../models/mlp-runner.ts';
import type { PolicySnapshots } from '../algorithm/training-algorithm.ts';

export interface Snapshot {
  readonly iteration: number;
  /** Where the snapshot's policy file lives (saved with the run, reloaded on resume). */
  readonly path: string;
  /** The snapshot's network, for the batch of games it plays a step. */
  readonly forward: ForwardPass;
  readonly inference: NetworkInference | null;
}

/**
 * Earlier versions of the policy that the learner plays against, so that it
 * keeps beating the strategies it has already left behind (a simple league).
 * Oldest snapshots drop out first.
 */
export class OpponentPool implements PolicySnapshots {
  private readonly snapshots: Snapshot[] = [];

  /**
   * Holds up to `capacity` snapshots, each run on `engine` (onnxruntime-node
   * where it loads, else the plain runner), or by the plain runner without one.
   */
  constructor(
    readonly capacity: number,
    private readonly engine: InferenceEngine | null = null,
  ) {}

  get size(): number {
    return this.snapshots.length;
  }

  add(iteration: number, path: string, weights: MlpWeights): void {
    const inference = this.engine?.createNow(weights) ?? null;
    const forward = inference?.forward ?? plainForward(weights);
    this.snapshots.push({ iteration, path, forward, inference });
    while (this.snapshots.length > this.capacity) this.snapshots.shift()?.inference?.dispose();
  }

  /** Releases the snapshots' sessions. */
  dispose(): void {
    for (const s of this.snapshots) s.inference?.dispose();
    this.snapshots.length = 0;
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

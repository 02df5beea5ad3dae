import { describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { DEFAULT_RULES } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { addPositions, PositionLog } from '../../train/expert-iteration/position-log.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { randomPositions } from '../agents/positions.ts';

describe("a shard's logged positions", () => {
  it('reach the replay buffer as the same rows whether the shard encoded them or the buffer did', () => {
    const encoder = new ObservationEncoder(
      { encoding: 'thermometer', lookahead: true, lookaheadEncoding: 'thermometer' },
      DEFAULT_RULES,
    );
    const log = new PositionLog(4);
    const policy = new Float32Array(NUM_ACTIONS).fill(1 / NUM_ACTIONS);
    for (const [i, position] of randomPositions(5, 40).entries()) {
      log.add(position.toState(), policy, 0, (i % 3) - 1);
    }
    const plain = log.positions();
    const encoded = log.positions(encoder);
    expect(plain.encoded).toBeUndefined();
    expect(encoded.encoded?.observations.length).toBe(40 * encoder.size);
    const [here, there] = [plain, encoded].map((positions) => {
      const buffer = new ReplayBuffer(8, encoder);
      addPositions(positions, buffer);
      return buffer;
    });
    expect(there?.size).toBe(40);
    expect(there?.observations).toEqual(here?.observations);
    expect(there?.masks).toEqual(here?.masks);
    expect(there?.states).toEqual(here?.states);
    expect(there?.values).toEqual(here?.values);
    // The rows hold something: legal moves in every mask, an observation that is not all zero.
    expect(there?.masks.subarray(0, 40 * NUM_ACTIONS).some((m) => m === 1)).toBe(true);
    expect(there?.observations.some((x) => x !== 0)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { computeAdvantages } from '../../train/ppo/advantages.ts';
import { RolloutBuffer } from '../../train/ppo/rollout-buffer.ts';

function chainBuffer(): RolloutBuffer {
  // One self-play game, plies alternate: p0 (k=0), p1 (k=1), p0 (k=2), p1 (k=3); p1 wins.
  const b = new RolloutBuffer(4, 1);
  const obs = new Float32Array(1);
  const mask = new Uint8Array(6).fill(1);
  for (let k = 0; k < 4; k++) b.add(obs, 0, mask, 0, 0, 0);
  b.next[0] = 2;
  b.next[1] = 3;
  // The game ends after p1's move k=3: p1 +1, p0's last move (k=2) -1.
  b.rewards[3] = 1;
  b.dones[3] = 1;
  b.rewards[2] = -1;
  b.dones[2] = 1;
  return b;
}

describe('computeAdvantages (zero-sum credit)', () => {
  it("gives each player's moves that player's own result", () => {
    const b = chainBuffer();
    computeAdvantages(b, 1, 1);
    expect(Array.from(b.returns)).toEqual([-1, 1, -1, 1]);
  });

  it('discounts along each player’s own chain and stops at the end of the game', () => {
    const b = chainBuffer();
    b.values.set([0.5, -0.5, 0.2, 0.1]);
    computeAdvantages(b, 0.9, 0.5);
    // k=3: delta = 1 - 0.1; k=2: delta = -1 - 0.2.
    expect(b.advantages[3]).toBeCloseTo(0.9, 6);
    expect(b.advantages[2]).toBeCloseTo(-1.2, 6);
    // k=1: delta = 0 + 0.9 * 0.1 + 0.5 = 0.59, plus 0.9 * 0.5 * 0.9
    expect(b.advantages[1]).toBeCloseTo(0.59 + 0.45 * 0.9, 5);
    expect(b.advantages[0]).toBeCloseTo(0.9 * 0.2 - 0.5 + 0.45 * -1.2, 5);
  });

  it('bootstraps a chain cut off by the end of the rollout', () => {
    const b = new RolloutBuffer(1, 1);
    b.add(new Float32Array(1), 0, new Uint8Array(6).fill(1), 0, 0, 0.25);
    b.bootstrap[0] = -0.5;
    computeAdvantages(b, 1, 0.95);
    expect(b.returns[0]).toBeCloseTo(-0.5, 6);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyAction,
  initialPosition,
  outcome,
  type Position,
  resolveRules,
} from '../../env/index.ts';
import { Random } from '../../env/random.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { createPolicyValueModel } from '../../models/policy-value-model.ts';
import { OpponentPool } from '../../train/ppo/opponent-pool.ts';
import { RolloutBuffer } from '../../train/ppo/rollout-buffer.ts';
import { PolicyRollouts } from '../../train/ppo/rollouts.ts';

let tf: Tf;
beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

const rules = resolveRules({});

describe('PPO rollouts: credit assignment', () => {
  it("credits each player's moves with that player's own result, chained per player", async () => {
    const network = { hidden: [8], activation: 'relu' as const };
    const model = createPolicyValueModel(tf, 14, network, 4);
    const selfPlay = new PolicyRollouts(
      model,
      network,
      await inferenceEngine(),
      {
        numEnvs: 1,
        seed: 3,
        rules,
        observation: { encoding: 'counts', lookahead: false, lookaheadEncoding: 'counts' },
        maxPlies: 500,
        openingPlies: 0,
      },
      new OpponentPool(1),
      [],
      { poolShare: 0, baselineShare: 0 },
      rules,
    );
    const rng = Random.fromSeed(5);
    selfPlay.reset(1, rng);
    const steps = 300;
    const buffer = new RolloutBuffer(steps, 14);
    const stats = await selfPlay.collect(steps, buffer, rng);
    expect(buffer.size).toBe(steps);
    expect(stats.games).toBeGreaterThan(2);

    // Replay the recorded actions with the engine and check every game's credit.
    let position: Position = initialPosition();
    let gameStart = 0;
    let checkedGames = 0;
    for (let k = 0; k < steps; k++) {
      const mover = position.toMove;
      position = applyAction(position, buffer.actions[k] as number, rules);
      const result = outcome(position, rules);
      if (result === null) continue;
      // The game ended with move k: each player's last move carries its result.
      const lastOf = [-1, -1];
      for (let j = gameStart, p = 0; j <= k; j++, p = 1 - p) lastOf[p] = j;
      for (const player of [0, 1] as const) {
        const last = lastOf[player] as number;
        const expected = result.winner === null ? 0 : result.winner === player ? 1 : -1;
        expect(buffer.dones[last]).toBe(1);
        expect(buffer.rewards[last]).toBe(expected);
      }
      expect(lastOf[mover]).toBe(k);
      // Every earlier move links to the same player's next move, two plies on.
      for (let j = gameStart; j <= k; j++) {
        const expectedNext = j + 2 <= k ? j + 2 : -1;
        expect(buffer.next[j]).toBe(expectedNext);
        if (expectedNext >= 0) {
          expect(buffer.rewards[j]).toBe(0);
          expect(buffer.dones[j]).toBe(0);
        }
      }
      checkedGames++;
      position = initialPosition();
      gameStart = k + 1;
    }
    expect(checkedGames).toBe(stats.games);
    model.dispose();
  });
});

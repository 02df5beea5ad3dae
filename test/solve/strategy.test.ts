import { describe, expect, it } from 'vitest';
import { checkWinningStrategy } from '../../bench/solve-strategy.ts';
import { DEFAULT_RULES, parsePosition, resolveRules } from '../../env/index.ts';
import { buildEndgame } from '../../solve/index.ts';

// The hand-built positions of test/solve/solver.test.ts.
const ONE_MOVE_WIN = '2,0,0,0,1,0/3,0,0,0,0,0/22-20/0';
const FORCED_LOSS = '0,0,0,0,1,0/1,0,0,1,1,1/20-23/0';
const ENDLESS = '0,0,0,1,0,1/1,0,0,1,1,1/21-21/1';
const STAYS = resolveRules({ captureSeedStays: true });

describe("the moonshot's strategy check (bench/solve-strategy.ts)", () => {
  it('plays a proven win out against every reply to the end of the game', () => {
    const quick = checkWinningStrategy(parsePosition(ONE_MOVE_WIN), 0, DEFAULT_RULES);
    expect(quick).toMatchObject({ verified: true, failure: null, longestLine: 1 });
    // Player 1 wins whatever player 0 does: every reply of player 0 is played.
    const forced = checkWinningStrategy(parsePosition(FORCED_LOSS), 1, DEFAULT_RULES);
    expect(forced.verified).toBe(true);
    expect(forced.longestLine).toBeGreaterThan(1);
    // With an endgame table the winner's moves come from a table-free solver once the board is small.
    const table = buildEndgame(6, DEFAULT_RULES);
    const cycle = checkWinningStrategy(parsePosition(ENDLESS), 0, DEFAULT_RULES, table);
    expect(cycle).toMatchObject({ verified: true, failure: null });
  });

  it('fails a claim that is false, and one that only endless play would settle', () => {
    const wrong = checkWinningStrategy(parsePosition(FORCED_LOSS), 0, DEFAULT_RULES);
    expect(wrong.verified).toBe(false);
    expect(wrong.failure).toMatch(/is not proven won|ends won by 1/);
    // captureSeedStays: player 1 escapes the loss only by playing round for ever.
    const endless = checkWinningStrategy(parsePosition(ENDLESS), 0, STAYS);
    expect(endless.verified).toBe(false);
    expect(endless.failure).not.toBeNull();
  });
});

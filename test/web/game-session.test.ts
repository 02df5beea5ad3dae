import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, formatPosition, legalActions } from '../../env/index.ts';
import { describeMove, GameSession, pitLabel } from '../../web/src/game-session.ts';
import { createComputer, OPPONENTS, opponentOf } from '../../web/src/opponents.ts';

describe('the page’s game session (no DOM)', () => {
  it('undo takes back the person’s last move and the replies after it, never the computer’s opening', async () => {
    const session = new GameSession(
      1,
      await createComputer('greedy', DEFAULT_RULES, 1, null),
      DEFAULT_RULES,
    );
    await session.playComputer();
    expect(session.undo()).toBe(false); // the person has not moved yet
    expect(session.moves).toHaveLength(1);
    const afterOpening = formatPosition(session.position);
    session.playHuman(legalActions(session.position)[0] as number);
    await session.playComputer();
    expect(session.moves.map((m) => m.by)).toEqual(['computer', 'human', 'computer']);
    expect(session.undo()).toBe(true);
    expect(session.moves).toHaveLength(1);
    expect(formatPosition(session.position)).toBe(afterOpening);
    expect(session.humanToMove).toBe(true);
  });

  it('names pits by row and action, as the CLI numbers actions', async () => {
    expect([0, 5, 6, 8, 11].map(pitLabel)).toEqual(['S0', 'S5', 'N0', 'N2', 'N5']);
    const session = new GameSession(
      0,
      await createComputer('random', DEFAULT_RULES, 2, null),
      DEFAULT_RULES,
    );
    const move = session.playHuman(3);
    expect(describeMove(move, 'random')).toMatch(/^South \(you\): action 3 \(S3\), \d+ laps?/);
    const reply = await session.playComputer();
    expect(describeMove(reply, 'random')).toContain(`action ${reply.action} (N${reply.action})`);
  });

  it('builds every offered opponent and refuses any other with a clear message', async () => {
    const askPerfect = () => Promise.reject(new Error('not asked in this test'));
    for (const choice of OPPONENTS.filter((c) => !c.needsPolicy)) {
      for (const { spec } of choice.strengths) {
        expect((await createComputer(spec, DEFAULT_RULES, 3, null, askPerfect)).name).toBe(spec);
      }
    }
    await expect(createComputer('perfect', DEFAULT_RULES, 3, null)).rejects.toThrow(
      'no solver worker is running',
    );
    const az = opponentOf('az').strengths[1]?.spec as string;
    for (const spec of ['policy:models/pretrained', az]) {
      await expect(createComputer(spec, DEFAULT_RULES, 3, null)).rejects.toThrow(
        'no policy is loaded',
      );
    }
    for (const spec of ['minimax:3', 'ext:engine', 'az:200', 'policy']) {
      await expect(createComputer(spec, DEFAULT_RULES, 3, null)).rejects.toThrow(
        `the page does not offer the opponent '${spec}'`,
      );
    }
    expect(() => opponentOf('ext')).toThrow(
      "unknown opponent 'ext'; the page offers perfect, policy, az, minimax, mcts, greedy, random",
    );
  });
});

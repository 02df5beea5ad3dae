import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  DEFAULT_RULES,
  formatPosition,
  legalActions,
  parsePosition,
  Random,
  START_NOTATION,
} from '../../env/index.ts';
import { shippedBookPath } from '../../solve/book/cache/book-cache.ts';
import { solve } from '../../solve/index.ts';
import { PageSolving } from '../../web/src/page-solving.ts';
import {
  PagePerfectPlayer,
  type PerfectMoveRequest,
  RemotePerfectAgent,
} from '../../web/src/perfect-opponent.ts';

const shippedBook = async () => new Uint8Array(readFileSync(shippedBookPath()));

const request = (position: string, seed = 's'): PerfectMoveRequest => ({
  kind: 'perfect-move',
  id: 7,
  position,
  rules: DEFAULT_RULES,
  seed,
});

// From ply 10 of a game: past the 6-ply book, so the solver answers.
const PAST_THE_BOOK = '0,2,0,0,1,2/1,7,3,0,5,2/13-12/0';

describe("the page's perfect opponent", () => {
  it('plays the only winning first move from the book the page serves', async () => {
    const player = new PagePerfectPlayer(new PageSolving(shippedBook));
    const answer = await player.answer(request(START_NOTATION));
    expect(answer).toMatchObject({
      kind: 'perfect-move',
      id: 7,
      action: 2,
      source: 'book',
      value: 1,
    });
  });

  it('past the book, and with a book that does not check out, plays a move that keeps the exact value', async () => {
    const damaged = async () => {
      const bytes = await shippedBook();
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
      return bytes;
    };
    for (const [source, sound] of [
      [shippedBook, true],
      [damaged, false],
    ] as const) {
      const solving = new PageSolving(source);
      const player = new PagePerfectPlayer(solving);
      // A damaged book is passed over: the solver answers alone.
      expect((await solving.loadBook()) !== null).toBe(sound);
      for (const position of [PAST_THE_BOOK, START_NOTATION]) {
        const answer = await player.answer(request(position));
        const exact = solve(parsePosition(position), {
          budget: { timeMs: 60_000 },
          endgame: solving.table(DEFAULT_RULES),
        });
        const best = exact.moves.filter((m) => m.value === exact.value).map((m) => m.action);
        expect(best, position).toContain(answer.action);
        expect(answer.source).toBe(sound && position === START_NOTATION ? 'book' : 'solver');
      }
    }
  });

  it('draws its ties from the seed it is sent: the same seed, the same move', async () => {
    const player = new PagePerfectPlayer(new PageSolving(shippedBook));
    // After the winning first move the reply is lost whatever it is, and several are as long.
    const position = formatPosition(applyAction(parsePosition(START_NOTATION), 2));
    const bySeed = async (seed: string) => (await player.answer(request(position, seed))).action;
    const moves = [];
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const action = await bySeed(seed);
      expect(await bySeed(seed)).toBe(action);
      moves.push(action);
    }
    expect(moves.every((a) => legalActions(parsePosition(position)).includes(a))).toBe(true);
  });

  it("asks the worker for each move with the game's seed and the position", async () => {
    const asked: Omit<PerfectMoveRequest, 'id'>[] = [];
    const agent = new RemotePerfectAgent(
      'perfect',
      async (question) => {
        asked.push(question);
        return { kind: 'perfect-move', id: 1, action: 2, source: 'book', value: 1, timeMs: 0 };
      },
      41,
    );
    const start = parsePosition(START_NOTATION);
    const context = { legal: legalActions(start), rng: Random.fromSeed(1), rules: DEFAULT_RULES };
    expect(await agent.act(start, context)).toBe(2);
    expect(asked).toEqual([
      {
        kind: 'perfect-move',
        position: START_NOTATION,
        rules: DEFAULT_RULES,
        seed: `41:${START_NOTATION}`,
      },
    ]);
  });
});

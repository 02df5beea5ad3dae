import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  core,
  initialPosition,
  legalActions,
  parsePosition,
  Random,
} from '../../env/index.ts';
import { assembleBook } from '../../solve/book/assemble.ts';
import { OpeningBook } from '../../solve/book/book.ts';
import { checkBook, sampleCatchOdds } from '../../solve/book/check.ts';
import {
  BOOK_VERSION,
  decodeBookFile,
  encodeBookFile,
  KEY_BYTES,
  RECORD_BYTES,
  VALUE_AT,
  valueCode,
} from '../../solve/book/format.ts';
import { LeafSolver } from '../../solve/book/leaves.ts';
import { bookLevels, levelSizes, stateKey } from '../../solve/book/plan.ts';
import { sha256Hex } from '../../solve/book/sha256.ts';
import { Solver } from '../../solve/index.ts';
import { BOOK_TEST_MS, bookEndgame, smallBook, smallSettings } from './book-fixture.ts';

describe('the opening book plan', { timeout: BOOK_TEST_MS }, () => {
  it('holds every position of the first plies once, by the ply it is first reached at', () => {
    // Counted by walking every line of play from the start (legalActions/applyAction).
    const seen = new Set<string>([initialPosition().toState().join()]);
    let level = [initialPosition()];
    const sizes = [1];
    for (let ply = 1; ply <= 4; ply++) {
      const next = [];
      for (const p of level) {
        for (const a of legalActions(p)) {
          const child = applyAction(p, a);
          const key = child.toState().join();
          if (legalActions(child).length === 0 || seen.has(key)) continue;
          seen.add(key);
          next.push(child);
        }
      }
      sizes.push(next.length);
      level = next;
    }
    expect(levelSizes(bookLevels(smallSettings(4).rules, 4))).toEqual(sizes);
    expect(sizes).toEqual([1, 6, 28, 132, 624]);
  });
});

describe('a book of 1 ply', { timeout: BOOK_TEST_MS }, () => {
  it('holds, for every position, the value every move has when solved from scratch', () => {
    const book = smallBook(1);
    expect(book.size).toBe(7);
    const solver = new Solver({ rules: book.rules, endgame: bookEndgame() });
    for (let i = 0; i < book.size; i++) {
      const state = book.stateAt(i);
      const entry = book.entryAt(i);
      const fresh = solver.solveState(state, { moves: true });
      expect(fresh.complete).toBe(true);
      expect(entry.moves.map((m) => [m.action, m.lo, m.hi])).toEqual(
        legalActions(parsePosition(positionText(state))).map((a) => [
          a,
          fresh.moveLo[a],
          fresh.moveHi[a],
        ]),
      );
    }
  });

  it('says at the start what docs/solver.md says: only action 2 wins', () => {
    const entry = smallBook(1).lookup(initialPosition().stateView);
    expect(entry?.moves.map((m) => (m.lo === m.hi ? m.lo : null))).toEqual([-1, -1, 1, -1, -1, -1]);
    expect(entry?.lo).toBe(1);
    // A won position's proof depth is its shortest winning move's.
    expect(entry?.depth).toBe(entry?.moves[2]?.depth);
  });

  it("passes its consistency check, and fails it where an entry does not hold its replies' values", () => {
    const book = smallBook(1);
    const report = checkBook(book, { endgame: bookEndgame(), samples: 3, seed: 3 });
    expect(report).toMatchObject({ entries: 7, leaves: 6, resolved: 3 });
    // The start's winning move made a loss: its reply says otherwise.
    const records = book.records.slice();
    const start = book.indexOf(initialPosition().stateView);
    records[start * RECORD_BYTES + VALUE_AT + 2] = valueCode(-1, -1);
    expect(() => checkBook(new OpeningBook(book.settings, records), { samples: 0 })).toThrow(
      "the book fails its replies check: position 4,4,4,4,4,4/4,4,4,4,4,4/0-0/0: action 2 does not hold its reply's value and depth",
    );
  });

  it('fails its re-solved sample where a leaf holds a wrong value', () => {
    const book = smallBook(1);
    const levels = bookLevels(book.rules, 1);
    const leaf = (levels[1] as Uint8Array).subarray(0, KEY_BYTES);
    const at = book.indexOf(leaf) * RECORD_BYTES;
    const records = book.records.slice();
    const first = [0, 1, 2, 3, 4, 5].find((a) => records[at + VALUE_AT + a] !== 0) as number;
    const lo = Math.floor(((records[at + VALUE_AT + first] as number) - 1) / 3) - 1;
    records[at + VALUE_AT + first] = valueCode(lo === 1 ? -1 : 1, lo === 1 ? -1 : 1);
    const tampered = new OpeningBook(book.settings, records);
    // Its parent's entry may catch it first; re-solving every leaf catches it where not.
    expect(() =>
      checkBook(tampered, { endgame: bookEndgame(), samples: book.size, seed: 1 }),
    ).toThrow(/^the book fails its (replies|sample) check: position /);
  });

  it('draws its sample among the leaves it is given, and needs a seed for it', () => {
    const book = smallBook(1);
    const leaves = bookLevels(book.rules, 1)[1] as Uint8Array;
    const first = leaves.subarray(0, KEY_BYTES);
    const among = new Set([stateKey(first)]);
    const heard: number[] = [];
    const report = checkBook(book, {
      endgame: bookEndgame(),
      samples: 8,
      seed: 9,
      among,
      onSample: (done) => heard.push(done),
    });
    expect(report.resolved).toBe(1);
    expect(heard).toEqual([0, 1]);
    expect(() => checkBook(book, { endgame: bookEndgame(), samples: 1 })).toThrow(
      "the book check's sample needs a seed",
    );
  });

  it('is the same to the byte whatever order its leaves are solved in', () => {
    const book = smallBook(1);
    const settings = book.settings;
    const levels = bookLevels(settings.rules, 1);
    const leaves = levels[1] as Uint8Array;
    const count = leaves.length / KEY_BYTES;
    // Solved backwards, one solver for all (each leaf starts from a cleared table).
    const solver = new LeafSolver(settings, bookEndgame());
    const backwards = new Uint8Array(count * RECORD_BYTES);
    for (let i = count - 1; i >= 0; i--) {
      backwards.set(solver.solve(leaves, i * KEY_BYTES), i * RECORD_BYTES);
    }
    expect(sha256Hex(assembleBook(settings, levels, backwards))).toBe(sha256Hex(book.records));
  });
});

function positionText(state: Uint8Array): string {
  const row = (from: number) => Array.from(state.subarray(from, from + 6)).join(',');
  return `${row(0)}/${row(6)}/${state[core.STORE_0]}-${state[core.STORE_1]}/${state[core.TO_MOVE]}`;
}

describe('the book version', { timeout: BOOK_TEST_MS }, () => {
  it(`pins what a book of version ${BOOK_VERSION} holds: a change that changes it bumps BOOK_VERSION`, () => {
    // If this fails, the build, the engine or the solver changed what a book
    // holds: bump BOOK_VERSION (solve/book/format.ts), pin the new hash, and
    // build the shipped book again (docs/solver.md, "Opening book").
    expect(BOOK_VERSION).toBe(1);
    expect(sha256Hex(smallBook(1).records)).toBe(
      '7e61f0dc8bbdc33b89a30b8987d2a380cbd9e90096c0f1189f8ad854b2106947',
    );
  });
});

describe('a book file', { timeout: BOOK_TEST_MS }, () => {
  const book = () => smallBook(1);
  const file = () => encodeBookFile('book', book().settings, book().records);

  it('reads back what was written', () => {
    const { header, records } = decodeBookFile(file());
    expect(header).toMatchObject({ version: BOOK_VERSION, kind: 'book', plies: 1, entries: 7 });
    expect(header.nonce).toBeUndefined();
    expect(records).toEqual(book().records);
  });

  it("keeps a resume file's build nonce, and takes one in no book", () => {
    const nonce = '0123456789abcdef0123';
    const leaves = encodeBookFile('leaves', book().settings, new Uint8Array(0), nonce);
    expect(decodeBookFile(leaves).header).toMatchObject({ kind: 'leaves', nonce, entries: 0 });
    expect(() => encodeBookFile('book', book().settings, book().records, nonce)).toThrow(/nonce/);
  });

  it("says what is wrong with a cut, damaged, foreign or other version's file", () => {
    const bytes = file();
    expect(() => decodeBookFile(bytes.subarray(0, bytes.length - 5))).toThrow(
      /^the book is \d+ bytes past its header, expected \d+ for 7 entries \(cut short\)$/,
    );
    const damaged = bytes.slice();
    damaged[damaged.length - 3] = (damaged[damaged.length - 3] as number) ^ 1;
    expect(() => decodeBookFile(damaged)).toThrow(
      'the book is damaged (its SHA-256 does not match)',
    );
    expect(() => decodeBookFile(new TextEncoder().encode('{"not":"a book"}'))).toThrow(
      'not an ayoayo opening book',
    );
    const head = bytes.indexOf(10, bytes.indexOf(10) + 1) + 1;
    const other = new Uint8Array([
      ...new TextEncoder().encode(
        new TextDecoder()
          .decode(bytes.subarray(0, head))
          .replace(`"version":${BOOK_VERSION}`, '"version":99'),
      ),
      ...bytes.subarray(head),
    ]);
    expect(() => decodeBookFile(other)).toThrow(
      `the book was built by other code (book version 99, this code's is ${BOOK_VERSION})`,
    );
  });
});

describe("the odds a book check's sample catches forged leaves", () => {
  it('are 1 - C(L-k, n) / C(L, n), counted against every draw of a small book', () => {
    // Every 3-leaf draw of 7 leaves, 2 of them forged: the draws that miss both are C(5, 3) of C(7, 3).
    expect(sampleCatchOdds(7, 3, 2)).toBeCloseTo(1 - 10 / 35, 12);
    expect(sampleCatchOdds(12_943, 8, 1)).toBeCloseTo(8 / 12_943, 12);
    expect(sampleCatchOdds(10, 8, 3)).toBe(1);
    expect(sampleCatchOdds(10, 0, 3)).toBe(0);
  });
});

describe('sha256Hex', { timeout: BOOK_TEST_MS }, () => {
  it("is node:crypto's SHA-256 on every length around the block edges", () => {
    const rng = Random.fromSeed(7);
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const bytes = Uint8Array.from({ length: n }, () => rng.int(256));
      expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});

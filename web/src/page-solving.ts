/**
 * What the page's solver workers share, without any DOM: the endgame table of
 * each rule set, built once in the worker (no download), and the opening
 * book the page serves beside it (book.bin, the package's book of the default
 * rules), fetched once. A book that does not arrive or does not check out is
 * passed over: the solver answers from the start instead, only slower.
 */
import { type Rules, rulesKey, sameRules } from '../../env/index.ts';
import type { OpeningBook } from '../../solve/book/book.ts';
import { openBook } from '../../solve/book/open-book.ts';
import { buildEndgame, type EndgameValues } from '../../solve/index.ts';

/**
 * The seeds of the endgame table the page's workers build: 12 seeds is 2.7
 * million boards, 5.4 MB, built in about 2 s; it makes the start's solve take
 * a fraction of a second instead of about ten.
 */
export const PAGE_ENDGAME_SEEDS = 12;

/** Where the page's book comes from: its bytes, or null where there is none. */
export type BookSource = () => Promise<Uint8Array | null>;

/** The page's book, fetched beside the worker's script; null on any HTTP error. */
export const fetchPageBook: BookSource = async () => {
  const response = await fetch('book.bin');
  return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
};

export class PageSolving {
  readonly #tables = new Map<string, EndgameValues>();
  readonly #source: BookSource | null;
  #book: Promise<OpeningBook | null> | null = null;
  #loaded: OpeningBook | null = null;

  /** `source`: the book's bytes (null: the page has no book). */
  constructor(source: BookSource | null = null) {
    this.#source = source;
  }

  /** The endgame table under `rules`, built on first use. */
  table(rules: Rules): EndgameValues {
    const key = rulesKey(rules);
    let table = this.#tables.get(key);
    if (table === undefined) {
      table = buildEndgame(PAGE_ENDGAME_SEEDS, rules);
      this.#tables.set(key, table);
    }
    return table;
  }

  /** Fetches and checks the book once; later calls wait for the same answer. */
  loadBook(): Promise<OpeningBook | null> {
    this.#book ??= this.#fetchBook();
    return this.#book;
  }

  /** The book under `rules` if it has been loaded (null: none, other rules, not loaded yet). */
  book(rules: Rules): OpeningBook | null {
    const book = this.#loaded;
    return book !== null && sameRules(book.rules, rules) ? book : null;
  }

  async #fetchBook(): Promise<OpeningBook | null> {
    if (this.#source === null) return null;
    try {
      const bytes = await this.#source();
      this.#loaded = bytes === null ? null : openBook(bytes);
    } catch {
      // A book that cannot be read costs speed, never a wrong value: the solver answers alone.
      this.#loaded = null;
    }
    return this.#loaded;
  }
}

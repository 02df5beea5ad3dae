import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** A line read from a stream, or the length of one that was too long to keep. */
export type BoundedLine = { readonly line: string } | { readonly tooLong: number };

/**
 * Splits text pushed in chunks into lines (`\n`, a trailing `\r` removed), keeping
 * at most `maxLength` characters of a line: a longer line is dropped as it
 * arrives and reported by its length when it ends, so that a peer writing
 * megabytes without a newline costs neither memory nor quadratic copying.
 */
export class LineSplitter {
  readonly maxLength: number;
  readonly #emit: (line: BoundedLine) => void;
  #parts: string[] = [];
  #length = 0;

  constructor(maxLength: number, emit: (line: BoundedLine) => void) {
    this.maxLength = maxLength;
    this.#emit = emit;
  }

  /** Characters of the unfinished line so far. */
  get pending(): number {
    return this.#length;
  }

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', start);
      this.#append(chunk, start, newline < 0 ? chunk.length : newline);
      if (newline < 0) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** Ends the input: an unfinished last line counts as a line. */
  end(): void {
    if (this.#length > 0) this.#finishLine();
  }

  #append(chunk: string, from: number, to: number): void {
    if (to <= from) return;
    this.#length += to - from;
    if (this.#length > this.maxLength) this.#parts = [];
    else this.#parts.push(chunk.slice(from, to));
  }

  #finishLine(): void {
    const length = this.#length;
    const line = this.#parts.join('');
    this.#parts = [];
    this.#length = 0;
    if (length > this.maxLength) this.#emit({ tooLong: length });
    else this.#emit({ line: line.endsWith('\r') ? line.slice(0, -1) : line });
  }
}

/** The lines of a stream, read with backpressure, each bounded as LineSplitter does. */
export async function* boundedLines(
  input: Readable,
  maxLength: number,
): AsyncGenerator<BoundedLine> {
  const decoder = new StringDecoder('utf8');
  const ready: BoundedLine[] = [];
  const splitter = new LineSplitter(maxLength, (line) => ready.push(line));
  for await (const chunk of input as AsyncIterable<string | Buffer>) {
    splitter.push(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    yield* ready.splice(0);
  }
  splitter.push(decoder.end());
  splitter.end();
  yield* ready.splice(0);
}

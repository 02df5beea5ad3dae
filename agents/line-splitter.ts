import type { Readable } from 'node:stream';

/** A line read from a stream, or the length in bytes of one that was too long to keep. */
export type BoundedLine = { readonly line: string } | { readonly tooLong: number };

const NEWLINE = 0x0a;

/**
 * Splits bytes pushed in chunks into UTF-8 lines (`\n`, a trailing `\r`
 * removed), keeping at most `maxBytes` of a line: a longer line is dropped as it
 * arrives and reported by its length when it ends, so that a peer writing
 * megabytes without a newline costs neither memory nor decoding. (A newline byte
 * never occurs inside a multi-byte UTF-8 character, so splitting bytes is safe.)
 */
export class LineSplitter {
  readonly maxBytes: number;
  readonly #emit: (line: BoundedLine) => void;
  #parts: Buffer[] = [];
  #length = 0;

  constructor(maxBytes: number, emit: (line: BoundedLine) => void) {
    this.maxBytes = maxBytes;
    this.#emit = emit;
  }

  /** Bytes of the unfinished line so far. */
  get pending(): number {
    return this.#length;
  }

  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.#append(bytes, start, newline < 0 ? bytes.length : newline);
      if (newline < 0) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** Ends the input: an unfinished last line counts as a line. */
  end(): void {
    if (this.#length > 0) this.#finishLine();
  }

  #append(bytes: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.#length += to - from;
    if (this.#length > this.maxBytes) this.#parts = [];
    else this.#parts.push(bytes.subarray(from, to));
  }

  #finishLine(): void {
    const length = this.#length;
    const line = Buffer.concat(this.#parts).toString('utf8');
    this.#parts = [];
    this.#length = 0;
    if (length > this.maxBytes) this.#emit({ tooLong: length });
    else this.#emit({ line: line.endsWith('\r') ? line.slice(0, -1) : line });
  }
}

/** The lines of a stream, read with backpressure, each bounded as LineSplitter does. */
export async function* boundedLines(
  input: Readable,
  maxBytes: number,
): AsyncGenerator<BoundedLine> {
  const ready: BoundedLine[] = [];
  const splitter = new LineSplitter(maxBytes, (line) => ready.push(line));
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    splitter.push(chunk);
    yield* ready.splice(0);
  }
  splitter.end();
  yield* ready.splice(0);
}

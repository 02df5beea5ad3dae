/** Characters kept of one stderr line (its end). */
const LINE_MAX = 300;

/**
 * The last few lines an engine wrote to stderr, for error messages. Memory and
 * work stay bounded however much it writes: whole lines beyond the last `lines`
 * are dropped, and of a long line (finished or not) only its end is kept.
 */
export class StderrTail {
  readonly #max: number;
  #lines: string[] = [];
  #partial = '';
  #partialCut = false;

  constructor(lines: number) {
    this.#max = lines;
  }

  push(chunk: string): void {
    const newline = chunk.lastIndexOf('\n');
    if (newline < 0) {
      this.#appendPartial(chunk);
      return;
    }
    const complete = chunk.slice(0, newline).split('\n');
    for (const [i, line] of complete.entries()) {
      if (i === 0) {
        this.#appendPartial(line);
        this.#pushLine(this.#partialText());
      } else if (i >= complete.length - this.#max) {
        this.#pushLine(shorten(line));
      }
    }
    this.#partial = '';
    this.#partialCut = false;
    this.#appendPartial(chunk.slice(newline + 1));
  }

  /** The last `count` non-empty lines, the unfinished one included. */
  last(count: number): string[] {
    return [...this.#lines, this.#partialText().trim()].filter((l) => l.length > 0).slice(-count);
  }

  #appendPartial(text: string): void {
    const joined = this.#partial + (text.length > LINE_MAX ? text.slice(-LINE_MAX) : text);
    if (joined.length > LINE_MAX || text.length > LINE_MAX) this.#partialCut = true;
    this.#partial = joined.slice(-LINE_MAX);
  }

  #partialText(): string {
    return this.#partialCut ? `...${this.#partial}` : this.#partial;
  }

  #pushLine(line: string): void {
    const trimmed = line.trim();
    if (trimmed.length === 0) return;
    this.#lines.push(trimmed);
    if (this.#lines.length > this.#max) this.#lines.shift();
  }
}

function shorten(line: string): string {
  return line.length > LINE_MAX ? `...${line.slice(-LINE_MAX)}` : line;
}

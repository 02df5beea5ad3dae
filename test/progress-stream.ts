import { Writable } from 'node:stream';

const ESC = String.fromCharCode(27);
const CURSOR_TO_COLUMN = new RegExp(`${ESC}\\[\\d*G|\\r|\\n`);
const ESCAPE = new RegExp(`${ESC}(\\[[\\d;?]*[A-Za-z]|[78])`, 'g');

/** A stream that records what a progress bar writes, posing as a terminal of `columns`. */
export function fakeTerminal(columns: number | null): {
  stream: NodeJS.WriteStream;
  lines: () => string[];
} {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream & { isTTY: boolean; columns?: number };
  stream.isTTY = columns !== null;
  if (columns !== null) stream.columns = columns;
  return {
    stream,
    // Each redraw starts with a cursor move; split there and drop the escape codes.
    lines: () =>
      text
        .split(CURSOR_TO_COLUMN)
        .map((l) => l.replace(ESCAPE, ''))
        .filter((l) => l.trim().length > 0),
  };
}

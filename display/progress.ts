import { isMainThread } from 'node:worker_threads';
import cliProgress from 'cli-progress';

/** A progress callback for tournaments, plus `stop()` to clear the bar at the end. */
export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

/** One piece of a progress line, in forms from fullest to shortest. */
export interface LineField {
  readonly kind: 'text';
  /** Forms from fullest to shortest; an empty form drops the field. */
  readonly forms: readonly string[];
  /** Fields of lower priority give way first. */
  readonly priority: number;
  /** What comes before it on the line (default ' | '). */
  readonly before?: string;
}

/** The bar itself, which shrinks to `min` cells before it gives way as a field. */
export interface LineBar {
  readonly kind: 'bar';
  readonly progress: number;
  readonly min: number;
  readonly max: number;
  readonly priority: number;
  readonly before?: string;
}

const FULL = '\u2588';
const EMPTY = '\u2591';

function drawBar(progress: number, size: number): string {
  const done = Math.max(0, Math.min(size, Math.round(progress * size)));
  return `[${FULL.repeat(done)}${EMPTY.repeat(size - done)}]`;
}

/**
 * A progress line that fits `width` columns. Fields are granted room from the
 * highest priority down, each in its fullest form that still fits (a field with
 * no empty form, such as the counter or the ETA, always stays); a bar is given
 * its smallest size in that round and grows into whatever room is left.
 */
export function fitLine(parts: readonly (LineField | LineBar)[], width: number): string {
  const chosen: string[] = parts.map((p) => (p.kind === 'text' ? (p.forms.at(-1) ?? '') : ''));
  const barSize: number[] = parts.map(() => 0);
  const piece = (i: number): string => {
    const p = parts[i] as LineField | LineBar;
    const text =
      p.kind === 'bar'
        ? barSize[i] === 0
          ? ''
          : drawBar(p.progress, barSize[i] as number)
        : (chosen[i] as string);
    return text.length === 0 ? '' : `${p.before ?? ' | '}${text}`;
  };
  const render = (): string =>
    parts
      .map((_, i) => piece(i))
      .join('')
      .replace(/^( \| | )/, '');
  const order = parts
    .map((_, i) => i)
    .sort((a, b) => (parts[b]?.priority ?? 0) - (parts[a]?.priority ?? 0));
  for (const i of order) {
    const p = parts[i] as LineField | LineBar;
    if (p.kind === 'bar') {
      barSize[i] = p.min;
      if (render().length > width) barSize[i] = 0;
      continue;
    }
    const fallback = chosen[i] as string;
    chosen[i] =
      p.forms.find((form) => {
        chosen[i] = form;
        return render().length <= width;
      }) ?? fallback;
  }
  parts.forEach((p, i) => {
    if (p.kind !== 'bar' || barSize[i] === 0) return;
    barSize[i] = Math.min(p.max, (barSize[i] as number) + Math.max(0, width - render().length));
  });
  return render();
}

/** The columns a progress line may use on `stream` (one spare, so no terminal wraps). */
export function lineWidth(stream: NodeJS.WriteStream): number {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0
    ? stream.columns - 1
    : 200;
}

/** `ETA 4m05s`, or `ETA -` while the rate is unknown. */
export function etaText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return 'ETA -';
  const s = Math.round(seconds);
  if (s < 60) return `ETA ${s}s`;
  if (s < 3600) return `ETA ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `ETA ${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The tournament line: label, bar, games (or other units) done, per second, ETA. */
export function gamesLine(
  label: string,
  done: number,
  total: number,
  rate: string,
  etaSeconds: number,
  width: number,
  unit = 'games',
): string {
  return fitLine(
    [
      { kind: 'text', forms: [label, ''], priority: 1, before: '' },
      {
        kind: 'bar',
        progress: total > 0 ? done / total : 0,
        min: 10,
        max: 40,
        priority: 2,
        before: ' ',
      },
      {
        kind: 'text',
        forms: [`${done}/${total} ${unit}`, `${done}/${total}`],
        priority: 9,
        before: ' ',
      },
      { kind: 'text', forms: [`${rate} ${unit}/s`, ''], priority: 3 },
      { kind: 'text', forms: [etaText(etaSeconds)], priority: 10 },
    ],
    width,
  );
}

/**
 * Stops a bar that hides a terminal's cursor when SIGINT or SIGTERM comes:
 * cli-progress shows the cursor again only in stop(), and the program would
 * end with it hidden. The signal then goes on as it would have: this handler
 * runs before the others (the folder lock's, a command's own) and removes
 * itself, and when no handler is left it raises the signal again, so that it
 * ends the program (exit 130 on Ctrl-C). (cli-progress's own `gracefulExit`
 * runs after the lock's handler, which then leaves the signal to it, and the
 * program would not end at all.) Returns the function that removes it, for
 * when the bar stops.
 */
export function stopBarOnSignal(stop: () => void): () => void {
  // Signals come to the main thread only.
  if (!isMainThread) return () => {};
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const remove = (): void => {
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    remove();
    try {
      stop();
    } finally {
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    }
  };
  for (const signal of signals) process.prependListener(signal, onSignal);
  return remove;
}

/**
 * A cli-progress bar on stderr showing games (or `unit`s) done, how many a
 * second and ETA, fitted to the terminal's width. When stderr is not a
 * terminal (pipes, CI, files) or `quiet` is set, nothing is drawn.
 */
export function gamesProgressBar(
  options: { quiet?: boolean; label?: string; unit?: string; stream?: NodeJS.WriteStream } = {},
): ProgressBar {
  const stream = options.stream ?? process.stderr;
  if (options.quiet === true || stream.isTTY !== true) return { update: () => {}, stop: () => {} };
  const unit = options.unit ?? 'games';
  const label = options.label ?? unit;
  const bar = new cliProgress.SingleBar({
    format: (_options, params, payload: { rate: string }) =>
      gamesLine(
        label,
        params.value,
        params.total,
        payload.rate,
        params.eta,
        lineWidth(stream),
        unit,
      ),
    stream,
    hideCursor: true,
    etaBuffer: 50,
  });
  const started = performance.now();
  let running = false;
  let unguard = (): void => {};
  // A resumed job starts with some done: the rate counts only what this process did.
  let first = 0;
  return {
    update(done, total) {
      const seconds = (performance.now() - started) / 1000;
      if (!running) first = done;
      const perSecond = (done - first) / seconds;
      const rate =
        seconds > 0 ? (perSecond >= 1 ? perSecond.toFixed(1) : perSecond.toPrecision(2)) : '-';
      if (!running) {
        unguard = stopBarOnSignal(() => bar.stop());
        bar.start(total, done, { rate });
        running = true;
      } else {
        bar.update(done, { rate });
      }
    },
    stop() {
      unguard();
      if (running) bar.stop();
    },
  };
}

import cliProgress from 'cli-progress';

/** A progress callback for tournaments, plus `stop()` to clear the bar at the end. */
export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * A cli-progress bar on stderr showing games done, games per second and ETA.
 * When stderr is not a terminal (pipes, CI, files) or `quiet` is set, nothing
 * is drawn.
 */
export function gamesProgressBar(options: { quiet?: boolean; label?: string } = {}): ProgressBar {
  if (options.quiet === true || process.stderr.isTTY !== true)
    return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${options.label ?? 'games'} [{bar}] {value}/{total} | {rate} games/s | ETA {eta_formatted}`,
      stream: process.stderr,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  let running = false;
  return {
    update(done, total) {
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? (done / seconds).toFixed(1) : '-';
      if (!running) {
        bar.start(total, done, { rate });
        running = true;
      } else {
        bar.update(done, { rate });
      }
    },
    stop() {
      if (running) bar.stop();
    },
  };
}

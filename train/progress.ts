import cliProgress from 'cli-progress';

export interface IterationSummary {
  readonly pliesPerSec: number;
  readonly policyLoss: number;
  readonly valueLoss: number;
  readonly scores: Record<string, number> | null;
}

/** The training progress bar: iteration, plies/s, losses, latest scores and ETA. */
export class TrainingProgress {
  private readonly bar: cliProgress.SingleBar | null;

  constructor(enabled: boolean, total: number, start: number) {
    this.bar = enabled
      ? new cliProgress.SingleBar(
          {
            format:
              'train [{bar}] {value}/{total} it | {plies} plies/s | loss π {policy} v {value_loss} | {scores} | ETA {eta_formatted}',
            hideCursor: true,
            etaBuffer: 20,
            noTTYOutput: true,
            notTTYSchedule: 10000,
          },
          cliProgress.Presets.shades_classic,
        )
      : null;
    this.bar?.start(total, start, {
      plies: '-',
      policy: '-',
      value_loss: '-',
      scores: 'no evaluation yet',
    });
  }

  update(iteration: number, s: IterationSummary): void {
    if (this.bar === null) return;
    const scores = s.scores
      ? Object.entries(s.scores)
          .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
          .join(' ')
      : 'no evaluation yet';
    this.bar.update(iteration, {
      plies: Math.round(s.pliesPerSec).toLocaleString('en-US'),
      policy: s.policyLoss.toFixed(3),
      value_loss: s.valueLoss.toFixed(3),
      scores,
    });
  }

  stop(): void {
    this.bar?.stop();
  }
}

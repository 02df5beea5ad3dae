import cliProgress from 'cli-progress';
import { etaText, fitLine, lineWidth, stopBarOnSignal } from '../../display/progress.ts';

export interface IterationSummary {
  readonly pliesPerSec: number;
  readonly policyLoss: number;
  readonly valueLoss: number;
  readonly scores: Record<string, number> | null;
}

/**
 * A loss with three significant digits, in exponent form when it is tiny or
 * huge, so that a small loss shows its size (`-1.23e-4`, never `-0.000`).
 */
export function formatLoss(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const size = Math.abs(x);
  if (size >= 0.01 && size < 1000) return x.toPrecision(3);
  return x
    .toExponential(2)
    .replace(/\.?0+e/, 'e')
    .replace('e+', 'e');
}

interface LinePayload {
  readonly plies: string;
  readonly policy: string;
  readonly valueLoss: string;
  readonly scores: Record<string, number> | null;
}

/**
 * The training line at `width` columns. It gives way in this order: the bar
 * shrinks, plies/s goes, the bar goes, the losses shorten then go, the scores
 * lose their names then go; the iteration counter and the ETA always stay.
 */
export function trainingLine(
  iteration: number,
  total: number,
  etaSeconds: number,
  payload: LinePayload,
  width: number,
): string {
  const scores = payload.scores
    ? [
        Object.entries(payload.scores)
          .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
          .join(' '),
        `scores ${Object.values(payload.scores)
          .map((v) => (v * 100).toFixed(0))
          .join('/')}%`,
        '',
      ]
    : ['no evaluation yet', 'no eval yet', ''];
  return fitLine(
    [
      { kind: 'text', forms: ['train'], priority: 8, before: '' },
      {
        kind: 'bar',
        progress: total > 0 ? iteration / total : 0,
        min: 10,
        max: 30,
        priority: 3,
        before: ' ',
      },
      { kind: 'text', forms: [`${iteration}/${total} it`], priority: 9, before: ' ' },
      { kind: 'text', forms: [`${payload.plies} plies/s`, ''], priority: 2 },
      {
        kind: 'text',
        forms: [
          `loss π ${payload.policy} v ${payload.valueLoss}`,
          `π ${payload.policy} v ${payload.valueLoss}`,
          '',
        ],
        priority: 4,
      },
      { kind: 'text', forms: scores, priority: 6 },
      { kind: 'text', forms: [etaText(etaSeconds)], priority: 10 },
    ],
    width,
  );
}

/**
 * The training progress bar: iteration, plies/s, losses, latest scores and
 * ETA, fitted to the terminal's width. Outside a terminal, a plain line every
 * 10 seconds.
 */
export class TrainingProgress {
  private readonly bar: cliProgress.SingleBar | null;
  /** In a terminal, a Ctrl-C stops the bar first, so that the cursor it hides comes back. */
  private readonly unguard: () => void;

  constructor(
    enabled: boolean,
    total: number,
    start: number,
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.bar = enabled
      ? new cliProgress.SingleBar({
          format: (_options, params, payload: LinePayload) =>
            trainingLine(params.value, params.total, params.eta, payload, lineWidth(stream)),
          stream,
          hideCursor: true,
          etaBuffer: 20,
          noTTYOutput: true,
          notTTYSchedule: 10000,
        })
      : null;
    const bar = this.bar;
    this.unguard =
      bar !== null && stream.isTTY === true ? stopBarOnSignal(() => bar.stop()) : () => {};
    this.bar?.start(total, start, { plies: '-', policy: '-', valueLoss: '-', scores: null });
  }

  update(iteration: number, s: IterationSummary): void {
    if (this.bar === null) return;
    this.bar.update(iteration, {
      plies: Math.round(s.pliesPerSec).toLocaleString('en-US'),
      policy: formatLoss(s.policyLoss),
      valueLoss: formatLoss(s.valueLoss),
      scores: s.scores,
    });
  }

  stop(): void {
    this.unguard();
    this.bar?.stop();
  }
}

import { describe, expect, it } from 'vitest';
import { formatLoss, TrainingProgress, trainingLine } from '../../train/report/progress.ts';
import { fakeTerminal } from '../progress-stream.ts';

const SCORES = { random: 0.98, greedy: 0.85, 'minimax:1': 0.7, 'minimax:2': 0.6 };
const PAYLOAD = {
  plies: '12,345',
  policy: formatLoss(-0.000123),
  valueLoss: formatLoss(0.4567),
  scores: SCORES,
};

describe('formatLoss', () => {
  it('shows the size of tiny and huge losses, three significant digits otherwise', () => {
    expect(formatLoss(-0.000123)).toBe('-1.23e-4');
    expect(formatLoss(0.0001)).toBe('1e-4');
    expect(formatLoss(0.4567)).toBe('0.457');
    expect(formatLoss(-0.05)).toBe('-0.0500');
    expect(formatLoss(12345)).toBe('1.23e4');
    expect(formatLoss(0)).toBe('0');
    for (const x of [-3e-7, 2.5e-5, -0.0004]) expect(formatLoss(x)).not.toMatch(/^-?0\.0+$/);
  });
});

describe('the training line', () => {
  it('at 80 columns keeps the counter, the scores, the losses and the ETA', () => {
    const line = trainingLine(120, 450, 312, PAYLOAD, 79);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/^train .*120\/450 it/);
    expect(line).toMatch(/ETA 5m12s$/);
    expect(line).toContain('98/85/70/60%');
    expect(line).toContain('π -1.23e-4 v 0.457');
  });

  it('shows every field in full when there is room, and never loses the ETA', () => {
    const wide = trainingLine(120, 450, 312, PAYLOAD, 200);
    for (const part of ['12,345 plies/s', 'loss π -1.23e-4', 'minimax:2 60%', '120/450 it', '['])
      expect(wide).toContain(part);
    for (const width of [120, 100, 79, 60, 40, 30]) {
      const line = trainingLine(120, 450, 312, PAYLOAD, width);
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line).toMatch(/120\/450 it.*ETA 5m12s$/);
    }
  });

  it('draws on an 80-column terminal within the width, with the ETA', () => {
    const term = fakeTerminal(80);
    const progress = new TrainingProgress(true, 450, 0, term.stream);
    progress.update(120, {
      pliesPerSec: 12345,
      policyLoss: -0.000123,
      valueLoss: 0.4567,
      scores: SCORES,
    });
    progress.stop();
    const lines = term.lines();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.length).toBeLessThan(80);
      expect(line).toMatch(/ETA/);
    }
    expect(lines.at(-1)).toContain('120/450 it');
    expect(lines.at(-1)).toMatch(/98/);
  });

  it('writes plain, full lines when the output is not a terminal', () => {
    const term = fakeTerminal(null);
    const progress = new TrainingProgress(true, 450, 0, term.stream);
    progress.update(120, { pliesPerSec: 12345, policyLoss: 0.5, valueLoss: 0.25, scores: SCORES });
    progress.stop();
    const last = term.lines().at(-1) ?? '';
    expect(last).toContain('12,345 plies/s');
    expect(last).toContain('random 98% greedy 85% minimax:1 70% minimax:2 60%');
    expect(last).not.toContain('\x1b');
  });
});

import { describe, expect, it } from 'vitest';
import { fitLine, gamesLine, gamesProgressBar } from '../../display/progress.ts';
import { fakeTerminal } from '../progress-stream.ts';

describe('fitLine', () => {
  it('gives room to fields by priority, in their fullest form that fits', () => {
    const parts = [
      { kind: 'text', forms: ['AAAA'], priority: 9, before: '' },
      { kind: 'text', forms: ['low low low', ''], priority: 1 },
      { kind: 'text', forms: ['high high', 'hh', ''], priority: 5 },
      { kind: 'text', forms: ['ETA 1s'], priority: 10 },
    ] as const;
    expect(fitLine(parts, 100)).toBe('AAAA | low low low | high high | ETA 1s');
    expect(fitLine(parts, 30)).toBe('AAAA | high high | ETA 1s');
    expect(fitLine(parts, 20)).toBe('AAAA | hh | ETA 1s');
    expect(fitLine(parts, 5)).toBe('AAAA | ETA 1s');
  });

  it('grows a bar into the room left, between its sizes', () => {
    const bar = { kind: 'bar', progress: 0.5, min: 4, max: 10, priority: 2, before: '' } as const;
    const counter = { kind: 'text', forms: ['1/2'], priority: 9, before: ' ' } as const;
    expect(fitLine([bar, counter], 100)).toBe(`[${'█'.repeat(5)}${'░'.repeat(5)}] 1/2`);
    expect(fitLine([bar, counter], 10)).toBe(`[${'█'.repeat(2)}${'░'.repeat(2)}] 1/2`);
    expect(fitLine([bar, counter], 8)).toBe('1/2');
  });
});

describe('the games progress bar', () => {
  it('fits 80 columns and keeps the ETA', () => {
    for (const width of [200, 79, 40, 20]) {
      const line = gamesLine('evaluate', 30, 400, '12.5', 100, width);
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line).toMatch(/30\/400.*ETA 1m40s$/);
    }
    const term = fakeTerminal(80);
    const bar = gamesProgressBar({ stream: term.stream });
    bar.update(1, 400);
    bar.update(30, 400);
    bar.stop();
    for (const line of term.lines()) {
      expect(line.length).toBeLessThan(80);
      expect(line).toMatch(/\d+\/400 games.*ETA/);
    }
  });

  it('draws nothing outside a terminal', () => {
    const term = fakeTerminal(null);
    const bar = gamesProgressBar({ stream: term.stream });
    bar.update(1, 4);
    bar.stop();
    expect(term.lines()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { durationFromArg, MAX_DURATION_MS } from '../../cli/engine-args.ts';
import { memoryFromArg } from '../../cli/memory-option.ts';

describe('a duration argument (--time, --review-time)', () => {
  it('takes ms, s, m, min and h, a bare number as seconds', () => {
    expect(
      ['500ms', '10s', '10', '10 s', '.5s', '2m', '90min', '1.5h', '2h', '24h'].map((text) =>
        durationFromArg('--time', text),
      ),
    ).toEqual([
      500,
      10_000,
      10_000,
      10_000,
      500,
      120_000,
      5_400_000,
      5_400_000,
      7_200_000,
      MAX_DURATION_MS,
    ]);
  });

  it('refuses, in one line naming the flag, the value and what it takes, anything not above 0 and up to a day in any unit', () => {
    for (const text of [
      '-1s',
      '-1',
      '0',
      '0ms',
      '25h',
      '1500m',
      '86401s',
      '86400001ms',
      '1e3',
      'soon',
      '10 seconds',
      '',
    ]) {
      expect(() => durationFromArg('--time', text)).toThrow(
        `invalid --time '${text}': expected a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds)`,
      );
    }
  });
});

describe('a memory argument (--max-job-memory)', () => {
  const machine = 16e9;

  it('takes KB, MB, GB and TB (decimal, the letter alone too) and KiB..TiB (binary)', () => {
    expect(
      ['4GB', '512MB', '512mb', '8G', '1.5GiB', '100KiB', '16GB', '0.016TB'].map((text) =>
        memoryFromArg('--max-job-memory', text, machine),
      ),
    ).toEqual([4e9, 512e6, 512e6, 8e9, 1.5 * 2 ** 30, 102_400, 16e9, 16e9]);
  });

  it("refuses an amount above the machine's the same way whatever the unit, and anything not above 0", () => {
    for (const text of [
      '1TB',
      '1000000GB',
      '17GB',
      '15GiB',
      '-1GB',
      '0GB',
      '4096',
      'lots',
      '4 GBs',
    ]) {
      expect(() => memoryFromArg('--max-job-memory', text, machine)).toThrow(
        `invalid --max-job-memory '${text}': expected an amount of memory above 0 and up to this machine's 16.0 GB, such as 512MB, 4GB or 1.5GiB`,
      );
    }
  });
});

import { describe, expect, it } from 'vitest';
import { threadJob } from '../../threads/job.ts';
import { capWorkers, runAllOnThreads, ThreadPool } from '../../threads/pool.ts';
import { COUNT_JOB, FAILING_JOB } from './jobs.fixture.ts';

const FIXTURE = new URL('./jobs.fixture.ts', import.meta.url).href;

describe('the thread pool', () => {
  it('runs a job its layer declared, every count heard before the result', async () => {
    const heard: number[] = [];
    const results = await runAllOnThreads(
      COUNT_JOB,
      [{ n: 3 }, { n: 250 }, { n: 0 }],
      2,
      (count) => heard.push(count),
      { setup: [{ module: FIXTURE, name: 'setUp' }] },
    );
    expect(results.map((r) => r.n)).toEqual([3, 250, 0]);
    expect(heard.reduce((a, b) => a + b, 0)).toBe(253);
    // Each thread makes its setup calls once, before its first job.
    for (const result of results) expect(result.setUps).toBe(1);
  });

  it('rejects a job whose handler throws, or that names no function, and keeps running others', async () => {
    const pool = new ThreadPool(1);
    try {
      await expect(pool.run(FAILING_JOB, { why: 'no luck' })).rejects.toThrow('no luck');
      const missing = threadJob<{ n: number }, unknown>(FIXTURE, function nowhere() {});
      await expect(pool.run(missing, { n: 1 })).rejects.toThrow(
        `${FIXTURE} has no function nowhere for a thread to call`,
      );
      await expect(pool.run(COUNT_JOB, { n: 2 })).resolves.toMatchObject({ n: 2, setUps: 0 });
    } finally {
      await pool.destroy();
    }
  });

  it('caps the threads at one a core, saying so', () => {
    const capped: number[] = [];
    expect(capWorkers(8, (cores) => capped.push(cores), 2)).toBe(2);
    expect(capWorkers(2, (cores) => capped.push(cores), 2)).toBe(2);
    expect(capped).toEqual([2]);
  });
});

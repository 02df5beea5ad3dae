import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child processes rather than worker threads: safest with tfjs (wasm/native backends).
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
});

import { relative } from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends the run with the plain line `vitest: N passed, N failed` (plus skipped),
 * the closing line that CI reads in any language. A test file that fails
 * outside its tests (it does not load, or a beforeAll hook throws, say for a
 * missing system service, so its tests never run) counts as one failure, and
 * so does every unhandled error: a run with any of them must never read
 * "0 failed". A line before it names those files and errors.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
  ): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const brokenFiles: string[] = [];
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedTests++;
        else skipped++;
      }
      failed += failedTests;
      if (module.state() === 'failed' && failedTests === 0) {
        failed++;
        brokenFiles.push(relative(process.cwd(), module.moduleId));
      }
    }
    failed += unhandledErrors.length;
    const notes = [
      ...(brokenFiles.length > 0
        ? [
            `${brokenFiles.length} test file(s) failed outside their tests: ${brokenFiles.join(', ')}`,
          ]
        : []),
      ...(unhandledErrors.length > 0 ? [`${unhandledErrors.length} unhandled error(s)`] : []),
    ];
    const note = notes.length > 0 ? `vitest: counted as failed: ${notes.join('; ')}\n` : '';
    process.stdout.write(
      `\n${note}vitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}

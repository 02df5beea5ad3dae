import { describe, expect, it } from 'vitest';
import { compileAdamKernel } from '../../scripts/adam-kernel.ts';
import { ADAM_WASM } from '../../train/gradients/adam-kernel/adam-wasm.ts';
import { AdamKernel } from '../../train/gradients/adam-kernel/kernel.ts';

const built = compileAdamKernel();
const missing = typeof built === 'string' ? built : null;
if (missing !== null && process.env.CI !== 'true') {
  process.stderr.write(`skipped: Adam's kernel rebuild check: ${missing}\n`);
}

describe("Adam's WebAssembly kernel", () => {
  it.skipIf(missing !== null && process.env.CI !== 'true')(
    'ships the bytes that adam.c builds to (npm run build:adam-kernel)',
    () => {
      if (typeof built === 'string') throw new Error(built);
      expect(Buffer.from(ADAM_WASM, 'base64').equals(Buffer.from(built))).toBe(true);
    },
  );

  it('sums squares in float32 from the first float to the last, and refuses floats outside its arrays', () => {
    const kernel = new AdamKernel(7);
    kernel.gradients.set([1e8, 1, 1, 1, 3, 0.5, 2]);
    // float32 drops each 1 next to 1e16: a sum in double or pairwise would keep them.
    const f = Math.fround;
    let expected = 0;
    for (const x of kernel.gradients) expected = f(expected + f(x * x));
    expect(kernel.sumSquares(0, 7)).toBe(expected);
    expect(kernel.sumSquares(0, 7)).not.toBe(1e16 + 3 + 9 + 0.25 + 4);
    expect(kernel.sumSquares(4, 2)).toBe(9.25);
    expect(() => kernel.sumSquares(5, 3)).toThrow("floats 5 to 8 are outside the kernel's 7");
  });
});

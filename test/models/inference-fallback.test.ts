import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { InferenceError } from '../../models/errors.ts';
import { inferenceChoice, setInferenceChoice } from '../../models/inference/choice.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { NUM_ACTIONS, plainForward } from '../../models/mlp-runner.ts';
import { runAyoayo } from '../ayoayo-command.ts';

// A broken install: the package is there, its native library does not start.
vi.mock('onnxruntime-node/dist/binding.js', () => ({
  binding: { InferenceSession: class {} },
  initOrt: () => {
    throw new Error('libonnxruntime.so.1: cannot open shared object file\n(second line)');
  },
}));

describe('without a working onnxruntime-node', () => {
  it('auto falls back to tfjs (forced onto wasm) for batches and the plain runner, saying so in one line, once', async () => {
    const lines: string[] = [];
    // wasm forced: where tfjs-node installs (auto would take it), CI still runs what laptops run.
    const engine = await inferenceEngine('auto', {
      note: (line) => lines.push(line),
      tfjsBackend: 'wasm',
    });
    expect(engine.backend).toBe('tfjs');
    expect(lines).toEqual([
      'ayoayo: onnxruntime-node failed to load (libonnxruntime.so.1: cannot open shared object file); inference runs on tfjs for batches, the plain runner for single positions',
    ]);
    // Resolved once a thread: asking again says nothing more.
    await inferenceEngine('auto', { note: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);

    const { weights } = loadPolicy('models/pretrained');
    const batched = await engine.create(weights, { batched: true });
    const single = await engine.create(weights, { batched: false });
    expect([batched.runs, single.runs]).toEqual(['tfjs', 'plain']);
    const obs = new Float32Array(4 * weights.inputSize).map((_, i) => (i % 5) / 4);
    const expected = { logits: new Float32Array(4 * NUM_ACTIONS), values: new Float32Array(4) };
    plainForward(weights)(obs, 4, expected.logits, expected.values);
    for (const inference of [batched, single]) {
      const logits = new Float32Array(4 * NUM_ACTIONS);
      const values = new Float32Array(4);
      inference.forward(obs, 4, logits, values);
      for (let k = 0; k < logits.length; k++) {
        expect(Math.abs((logits[k] as number) - (expected.logits[k] as number))).toBeLessThan(1e-4);
      }
      inference.dispose();
    }
    expect((await import('@tensorflow/tfjs')).getBackend()).toBe('wasm');
  });

  it('onnx is an error naming why, never a silent fallback', async () => {
    const failure = inferenceEngine('onnx');
    await expect(failure).rejects.toThrow(InferenceError);
    await expect(failure).rejects.toThrow(
      /inference onnx needs onnxruntime-node: onnxruntime-node failed to load \(libonnxruntime/,
    );
  });

  it('a search agent plays on the fallback', async () => {
    (await import('../../agents/network/kinds.ts')).registerNetworkKinds();
    const { createAgent } = await import('../../agents/spec.ts');
    const { initialPosition, legalActions, Random, DEFAULT_RULES } = await import(
      '../../env/index.ts'
    );
    const agent = await createAgent('az:models/pretrained,sims=32', { rules: DEFAULT_RULES });
    const position = initialPosition();
    const action = await agent.act(position, {
      legal: legalActions(position, DEFAULT_RULES),
      rng: Random.fromSeed(1),
      rules: DEFAULT_RULES,
    });
    expect(legalActions(position, DEFAULT_RULES)).toContain(action);
    await agent.close?.();
  });
});

describe('the inference choice', () => {
  it('is read from AYOAYO_INFERENCE, auto when unset, and a bad value is an error naming it', () => {
    expect(inferenceChoice({})).toBe('auto');
    expect(inferenceChoice({ AYOAYO_INFERENCE: 'plain' })).toBe('plain');
    expect(() => inferenceChoice({ AYOAYO_INFERENCE: 'gpu' })).toThrow(
      "AYOAYO_INFERENCE must be one of auto, onnx, tfjs, plain; it is 'gpu'",
    );
    const before = process.env.AYOAYO_INFERENCE;
    setInferenceChoice('plain');
    expect(inferenceChoice()).toBe('plain');
    if (before === undefined) delete process.env.AYOAYO_INFERENCE;
    else process.env.AYOAYO_INFERENCE = before;
  });

  it('plain runs every network on the plain runner', async () => {
    const engine = await inferenceEngine('plain');
    const { weights } = loadPolicy('models/pretrained');
    expect((await engine.create(weights, { batched: true })).runs).toBe('plain');
  });
});

/** `ayoayo ...args` as on a machine where onnxruntime-node did not install. */
function withoutOnnxRuntime(args: readonly string[]) {
  const hook = fileURLToPath(
    new URL('../fixtures/inference/without-onnxruntime.mjs', import.meta.url),
  );
  return runAyoayo(args, '', { node: ['--import', hook], env: { AYOAYO_INFERENCE: '' } });
}

describe('a command where onnxruntime-node is not installed', () => {
  const evalArgs = ['eval', '--agents', 'random', '--vs', 'policy:models/pretrained'];
  const small = ['--games', '4', '--workers', '2', '--quiet'];

  it('falls back with one line on stderr, once for the process and its worker threads', async () => {
    const { code, stdout, stderr } = await withoutOnnxRuntime([...evalArgs, ...small]);
    expect(code).toBe(0);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'ayoayo: onnxruntime-node is not installed; inference runs on tfjs for batches, the plain runner for single positions',
    ]);
    expect(stdout).toContain('policy:models/pretrained');
  });

  it('fails with one line when onnx is asked for', async () => {
    const { code, stderr } = await withoutOnnxRuntime([
      ...evalArgs,
      ...small,
      '--inference',
      'onnx',
    ]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      'ayoayo: inference onnx needs onnxruntime-node: onnxruntime-node is not installed; use --inference auto or tfjs',
    ]);
  });
});

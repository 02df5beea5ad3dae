import '../setup/builtin-algorithms.ts';
import { describe, expect, it } from 'vitest';
import { loadBackend } from '../../models/backend.ts';
import { setInferenceChoice } from '../../models/inference/choice.ts';
import { loadOnnxRuntime } from '../../models/inference/onnx-runtime.ts';
import { parseTrainConfig } from '../../train/config/validate.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { ending, readJson, savedRuns } from './saved-runs.ts';

/**
 * A run saved before `updateSlices` (test/fixtures/train/README.md): its
 * update's gradients came from one onnxruntime-node session of two threads,
 * and its config.json and checkpoint have no such setting.
 */
const { fixture, copyRun, expected } = savedRuns('two-thread-update-runs');
const name = 'expert-iteration';

const { name: backend } = await loadBackend('auto');
const onnx = (await loadOnnxRuntime()).runtime !== null;
// Made with onnxruntime-node's inference and gradients: floats match on the same backends only.
setInferenceChoice('onnx');

describe('a run saved before the update was cut into slices', () => {
  it('reads its update as it was: one session of two threads (updateSlices null), its two shards', () => {
    const saved = readJson(fixture(`${name}/config.json`));
    expect(saved).not.toHaveProperty('updateSlices');
    const config = parseTrainConfig(saved);
    expect(config.updateSlices).toBeNull();
    expect(config.workers).toBe(2);
    expect(config).toMatchObject({ expertIteration: { selfPlayShards: 2 } });
    expect(
      readCheckpoint(fixture(`${name}/checkpoints/latest.json`)).config.updateSlices,
    ).toBeNull();
  });

  it.skipIf(!onnx)('resumes as the same run, on any number of workers', async () => {
    for (const workers of [1, 2]) {
      const runsDir = copyRun(name);
      const lines: string[] = [];
      const result = await train([{ name, runsDir, workers }], {
        resume: true,
        log: (line) => lines.push(line),
      });
      expect(result.iteration).toBe(4);
      expect(lines.join('\n')).toContain(
        "the update's gradients in one session of 2 threads on onnxruntime-node",
      );
      const saved = readJson(runPaths({ runsDir, name }).config);
      expect(saved.updateSlices).toBeNull();
      const end = expected(name);
      // The uninterrupted run was trained on the fixture's backend; floating point differs elsewhere.
      if (backend === end.backend) expect(ending(runsDir, name, backend)).toEqual(end);
    }
  });
});

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  featureNames,
  type ObservationConfig,
  ObservationEncoder,
} from '../../env/gym/observation.ts';
import {
  DEFAULT_RULES,
  maskActions,
  maskToBytes,
  parsePosition,
  type Rules,
  resolveRules,
} from '../../env/index.ts';
import type { EncoderVectors } from '../../models/export/encoder-check.ts';
import { exportPolicy } from '../../models/export/export-policy.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { MlpRunner } from '../../models/mlp-runner.ts';
import { describeWithSystemPackage, PYTHON_NUMPY } from '../system-packages.ts';
import { writeRandomPolicy } from './random-policy.ts';

const CLIENT = fileURLToPath(new URL('../../examples/python/client.py', import.meta.url));

/** Runs the client as a user would; `hideOnnxRuntime`: as where `import onnxruntime` fails. */
function runClient(folder: string, hideOnnxRuntime = false) {
  const hide =
    "import runpy, sys; sys.modules['onnxruntime'] = None; sys.argv = sys.argv[1:]; " +
    "runpy.run_path(sys.argv[0], run_name='__main__')";
  const args = hideOnnxRuntime ? ['-c', hide, CLIENT, folder] : [CLIENT, folder];
  return spawnSync('python3', args, { encoding: 'utf8', timeout: 60_000 });
}

async function exportJson(
  dir: string,
  observation: ObservationConfig,
  seed: number,
  rules: Rules = DEFAULT_RULES,
) {
  const from = writeRandomPolicy(join(dir, 'policy'), observation, seed, rules);
  const out = join(dir, 'json');
  await exportPolicy({ from, format: 'json', out });
  return { out, policy: loadPolicy(from) };
}

function readVectors(out: string): EncoderVectors {
  return JSON.parse(readFileSync(join(out, 'vectors.json'), 'utf8')) as EncoderVectors;
}

describe('the export lets a client in another language verify its encoder', () => {
  const config: ObservationConfig = {
    encoding: 'counts',
    lookahead: true,
    lookaheadEncoding: 'counts',
  };
  let out: string;
  let policy: ReturnType<typeof loadPolicy>;

  beforeAll(async () => {
    ({ out, policy } = await exportJson(mkdtempSync(join(tmpdir(), 'ayoayo-enc-')), config, 3));
  });

  it("vectors.json holds the engine's features and the policy's probabilities for seeded positions", () => {
    const vectors = readVectors(out);
    expect(vectors.observation).toEqual({ ...config, size: 146 });
    expect(vectors.positions).toHaveLength(64);
    expect(new Set(vectors.positions.map((v) => v.position)).size).toBeGreaterThan(60);
    const encoder = new ObservationEncoder(policy.observation, policy.rules);
    const runner = new MlpRunner(policy.weights);
    const obs = new Float32Array(encoder.size);
    let gameEnding = 0;
    for (const vector of vectors.positions) {
      const pos = parsePosition(vector.position);
      expect([...pos.pits]).toEqual(vector.pits);
      const bits = encoder.encode(pos.toState(), obs, 0);
      expect(vector.features).toEqual(Array.from(obs));
      const mask = maskToBytes(bits, new Uint8Array(6));
      expect(vector.legal).toEqual(maskActions(bits));
      const { probabilities, value } = runner.evaluate(obs, mask);
      expect(vector.probabilities).toEqual(Array.from(probabilities));
      expect(vector.value).toBe(value);
      // la{a}_ends: the vectors reach moves that end the game, the lookahead's hardest case.
      for (let a = 0; a < 6; a++) gameEnding += obs[14 + 22 * a + 3] as number;
    }
    expect(gameEnding).toBeGreaterThan(0);
  });

  it('features.md describes every feature, the rules and the lookahead procedure', () => {
    const spec = readFileSync(join(out, 'features.md'), 'utf8');
    for (const [i, name] of featureNames(config).entries()) {
      expect(spec).toContain(`| ${i} | \`${name}\` |`);
    }
    expect(spec).toContain('endless relay');
    expect(spec).toContain('la{a}_value2 = min over r of d(R) / 24');
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.encoderCheck).toMatchObject({
      featureSpec: 'features.md',
      vectors: 'vectors.json',
      positions: 64,
    });
  });

  describeWithSystemPackage(PYTHON_NUMPY, 'the Python client (examples/python, numpy)', () => {
    it('computes the same features, probabilities and values', async () => {
      const run = runClient(out);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        'OK: 64 positions, features (counts + lookahead, 146 each), probabilities and values agree',
      );
      expect(run.status).toBe(0);

      // Another encoding under the other rule options: the client's onehot, capture and leftover paths.
      const other = await exportJson(
        mkdtempSync(join(tmpdir(), 'ayoayo-enc-')),
        { encoding: 'onehot', lookahead: true, lookaheadEncoding: 'counts' },
        4,
        resolveRules({ captureSeedStays: true, leftoverTo: 'owner' }),
      );
      expect(readVectors(other.out).rules).toEqual({ captureSeedStays: true, leftoverTo: 'owner' });
      expect(runClient(other.out).stdout).toContain('(onehot + lookahead, 290 each)');

      // The boards after the moves as thermometers: the client's lookahead pits in another encoding.
      const thermometer = await exportJson(
        mkdtempSync(join(tmpdir(), 'ayoayo-enc-')),
        { encoding: 'thermometer', lookahead: true, lookaheadEncoding: 'thermometer' },
        5,
      );
      expect(runClient(thermometer.out).stdout).toContain(
        '(thermometer + lookahead of thermometer boards, 1070 each)',
      );
    });

    it('names the first feature that differs from vectors.json', () => {
      const broken = mkdtempSync(join(tmpdir(), 'ayoayo-enc-broken-'));
      const vectors = readVectors(out);
      const target = vectors.positions[5];
      if (target === undefined) throw new Error('no sixth position');
      const index = 14 + 22 * (target.legal[0] ?? 0) + 7; // a la{a}_value2 feature
      target.features[index] = (target.features[index] ?? 0) + 0.25;
      writeFileSync(join(broken, 'vectors.json'), JSON.stringify(vectors));
      writeFileSync(join(broken, 'policy.json'), readFileSync(join(out, 'policy.json')));
      const run = runClient(broken);
      expect(run.status).toBe(1);
      expect(run.stdout).toContain(`MISMATCH ${target.position}: feature ${index} is`);
    });

    it('given the onnx export where ONNX Runtime is missing, says so in one line', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-enc-onnx-'));
      await exportPolicy({ from: join(out, 'policy.json'), format: 'onnx', out: dir });
      const run = runClient(dir, true);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `client.py: ${dir} holds the onnx export (model.onnx), which runs on ONNX Runtime: ` +
          'pip install onnxruntime, or export --format json for numpy alone\n',
      );
      expect(run.status).toBe(1);
    });

    it('given a folder it cannot use, says why in one line', () => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-enc-unusable-'));
      const tfjs = join(dir, 'tfjs');
      mkdirSync(tfjs);
      writeFileSync(join(tfjs, 'model.json'), '{}');
      const noVectors = join(dir, 'no-vectors');
      mkdirSync(noVectors);
      writeFileSync(join(noVectors, 'policy.json'), readFileSync(join(out, 'policy.json')));
      for (const [folder, why] of [
        [
          join(dir, 'missing'),
          `${join(dir, 'missing')}: no such folder; give the folder \`ayoayo export --out\` wrote`,
        ],
        [
          tfjs,
          `${tfjs} holds the tfjs export (model.json), which runs on tfjs: export --format json or onnx for this client`,
        ],
        [dir, `${dir} holds no export this client runs (policy.json or model.onnx)`],
        [
          noVectors,
          `${noVectors} has no vectors.json to check this client against; export it again`,
        ],
      ] as const) {
        const run = runClient(folder);
        expect(run.stderr).toBe(`client.py: ${why}\n`);
        expect(run.status).toBe(1);
      }
    });
  });
});

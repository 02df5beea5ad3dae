import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { featureNames, observationSize } from '../../env/gym/observation.ts';
import { decodeBrowserPolicy } from '../../models/export/browser-policy.ts';
import { exportPolicy } from '../../models/export/export-policy.ts';
import { MANIFEST_FORMAT, MANIFEST_FORMAT_VERSION } from '../../models/export/manifest.ts';
import { decodePolicyFile } from '../../models/policy-file.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { writeRandomPolicy } from './random-policy.ts';

const { onnx } = onnxProto;

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('exportPolicy writes the model files and a manifest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-manifest-'));
  const lookahead = writeRandomPolicy(join(dir, 'lookahead'));
  const plain = writeRandomPolicy(
    join(dir, 'plain'),
    { encoding: 'onehot', lookahead: false, lookaheadEncoding: 'counts' },
    5,
  );

  it.each([
    ['json', lookahead, ['policy.json', 'features.md', 'vectors.json', 'manifest.json']],
    ['onnx', lookahead, ['model.onnx', 'features.md', 'vectors.json', 'manifest.json']],
    ['tfjs', plain, ['model.json', 'weights.bin', 'features.md', 'vectors.json', 'manifest.json']],
  ] as const)(
    '%s: exactly its files (no temp files left) and a complete manifest',
    async (format, from, files) => {
      const out = join(dir, `out-${format}`);
      const result = await exportPolicy({
        from,
        format,
        out,
        now: new Date('2025-01-02T03:04:05Z'),
      });
      expect(result.files).toEqual(files);
      expect(readdirSync(out).sort()).toEqual([...files].sort());

      const { file } = readPolicyFile(from);
      const manifest = readJson(join(out, 'manifest.json')) as ReturnType<typeof readJson> & {
        observation: { features: { index: number; name: string; scaling: string }[]; size: number };
        model: {
          format: string;
          files: string[];
          inputs: { name: string }[];
          outputs: { name: string }[];
        };
      };
      expect(manifest.format).toBe(MANIFEST_FORMAT);
      expect(manifest.formatVersion).toBe(MANIFEST_FORMAT_VERSION);
      expect(manifest.exportedAt).toBe('2025-01-02T03:04:05.000Z');
      expect(manifest.model.format).toBe(format);
      expect(manifest.model.files).toEqual(files.slice(0, -3));
      expect(manifest.source).toEqual({ run: 'random-test-policy', iteration: 3 });
      expect(manifest.evaluation).toEqual({ random: 0.5 });
      expect(manifest.rules).toEqual(file.rules);
      expect(manifest.actions).toMatchObject({
        count: 6,
        pitOfAction: { player0: 'pit = a (pits 0..5)', player1: 'pit = a + 6 (pits 6..11)' },
      });
      expect(manifest.masking).toMatch(/p\[a\] = 0 for illegal a/);
      const features = manifest.observation.features;
      expect(manifest.observation.size).toBe(observationSize(file.observation));
      expect(features.map((f) => f.name)).toEqual(featureNames(file.observation));
      features.forEach((f, i) => {
        expect(f.index).toBe(i);
        expect(f.scaling.length).toBeGreaterThan(5);
      });
      expect('lookaheadProcedure' in manifest.observation).toBe(file.observation.lookahead);
      const inputs = manifest.model.inputs.map((t) => t.name);
      expect(inputs).toEqual(format === 'onnx' ? ['observation', 'action_mask'] : ['observation']);
    },
  );

  it('json: the policy file holds the same weights, and the browser decoder reads it identically', async () => {
    const out = join(dir, 'json-weights');
    await exportPolicy({ from: lookahead, format: 'json', out });
    const exported = readJson(join(out, 'policy.json'));
    const original = readPolicyFile(lookahead);
    const again = decodePolicyFile(exported, 'exported');
    const browser = decodeBrowserPolicy(exported);
    expect(again.weights).toEqual(original.weights);
    expect(browser.weights).toEqual(original.weights);
    expect(browser.observation).toEqual(original.file.observation);
    expect(browser.rules).toEqual(original.file.rules);
    expect(() => decodeBrowserPolicy({ ...exported, formatVersion: 2 })).toThrow(/formatVersion/);
    const network = exported.network as { policy: { bias: string } };
    const truncated = {
      ...exported,
      network: { ...network, policy: { ...network.policy, bias: 'AAAA' } },
    };
    expect(() => decodeBrowserPolicy(truncated)).toThrow(
      /policy\.bias: expected 6 float32 values \(24 bytes\), found 3 bytes/,
    );
  });

  it('onnx: opset 13, named inputs and outputs with a batch dimension, metadata', async () => {
    const out = join(dir, 'onnx-graph');
    await exportPolicy({ from: lookahead, format: 'onnx', out });
    const model = onnx.ModelProto.decode(readFileSync(join(out, 'model.onnx')));
    expect(model.opsetImport.map((o) => [o.domain, Number(o.version)])).toEqual([['', 13]]);
    const graph = model.graph;
    if (!graph) throw new Error('no graph');
    const shape = (v: onnxProto.onnx.IValueInfoProto) =>
      v.type?.tensorType?.shape?.dim?.map((d) => d.dimParam || Number(d.dimValue));
    const size = observationSize({ encoding: 'counts', lookahead: true });
    expect((graph.input ?? []).map((v) => [v.name, shape(v)])).toEqual([
      ['observation', ['batch', size]],
      ['action_mask', ['batch', 6]],
    ]);
    expect((graph.output ?? []).map((v) => [v.name, shape(v)])).toEqual([
      ['policy', ['batch', 6]],
      ['value', ['batch', 1]],
    ]);
    const meta = Object.fromEntries(model.metadataProps.map((p) => [p.key, p.value]));
    expect(JSON.parse(meta['ayoayo.source'] ?? 'null')).toEqual({
      run: 'random-test-policy',
      iteration: 3,
    });
  });

  it('tfjs: model.json names its weights file and carries the masking rule', async () => {
    const out = join(dir, 'tfjs-json');
    await exportPolicy({ from: plain, format: 'tfjs', out });
    const modelJson = readJson(join(out, 'model.json')) as {
      format: string;
      weightsManifest: { paths: string[]; weights: { name: string }[] }[];
      userDefinedMetadata: { ayoayo: { masking: string } };
    };
    expect(modelJson.format).toBe('layers-model');
    expect(modelJson.weightsManifest[0]?.paths).toEqual(['weights.bin']);
    expect(modelJson.weightsManifest[0]?.weights.map((w) => w.name)).toEqual([
      'hidden_1/kernel',
      'hidden_1/bias',
      'policy_logits/kernel',
      'policy_logits/bias',
      'value/kernel',
      'value/bias',
    ]);
    expect(modelJson.userDefinedMetadata.ayoayo.masking).toMatch(/illegal/);
  });

  it('refuses a policy whose network does not fit its observation encoding', async () => {
    const data = readJson(lookahead) as { observation: { lookahead: boolean }; checksum?: string };
    data.observation.lookahead = false;
    // As a file written before policy files had a checksum (one with it is refused for that).
    delete data.checksum;
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify(data));
    await expect(
      exportPolicy({ from: broken, format: 'json', out: join(dir, 'never') }),
    ).rejects.toThrow(/takes 146 inputs but its observation encoding has 14/);
  });
});

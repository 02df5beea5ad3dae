import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { observationSize } from '../../env/gym/observation.ts';
import { DEFAULT_RULES } from '../../env/index.ts';
import {
  encodeCheckpoint,
  readCheckpointPayload,
  saveTensor,
} from '../../models/checkpoint-file.ts';
import { PolicyFileError } from '../../models/errors.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { decodePolicyFile, makePolicyFile } from '../../models/policy-file.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { validatePolicyText } from '../../queue/policy-transport.ts';
import { randomWeights } from '../export/random-policy.ts';

const observation = { encoding: 'counts', lookahead: false, lookaheadEncoding: 'counts' } as const;

function policyWith(bad: number): unknown {
  const weights = randomWeights(observationSize(observation), 8, 3);
  weights.hidden[0]?.kernel.fill(bad, 5, 6);
  return JSON.parse(JSON.stringify(makePolicyFile(weights, { observation, rules: DEFAULT_RULES })));
}

describe('loading weights', () => {
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'refuses a policy file holding %s, in Node and in the browser decoder',
    (bad) => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-nan-'));
      const path = join(dir, 'policy.json');
      writeFileSync(path, JSON.stringify(policyWith(bad)));
      expect(() => loadPolicy(path)).toThrow(/hidden\[0\]\.kernel: value 5 is (NaN|-?Infinity)/);
      expect(() => loadPolicy(path)).toThrow(expect.objectContaining({ reason: 'corrupt' }));
      expect(() => loadPolicy(path)).toThrow(`${path}: hidden[0].kernel`);
      expect(() => decodePolicyFile(policyWith(bad), 'x')).toThrow(/not a finite number/);
      expect(() => loadPolicy(writeGood(dir))).not.toThrow();
    },
  );

  it('refuses a checkpoint whose weights hold NaN, naming the file and the tensor', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-nan-'));
    const inputs = observationSize(observation);
    const tensors = (bad: boolean) => {
      const kernel = new Float32Array(inputs * 4).fill(0.1);
      if (bad) kernel[2] = Number.NaN;
      return [
        saveTensor('hidden_1/kernel', [inputs, 4], kernel),
        saveTensor('hidden_1/bias', [4], new Float32Array(4)),
        saveTensor('policy_logits/kernel', [4, 6], new Float32Array(24).fill(0.2)),
        saveTensor('policy_logits/bias', [6], new Float32Array(6)),
        saveTensor('value/kernel', [4, 1], new Float32Array(4)),
        saveTensor('value/bias', [1], new Float32Array(1)),
      ];
    };
    const payload = (bad: boolean) => ({
      config: {
        name: 'n',
        hidden: [4],
        activation: 'relu',
        encoding: 'counts',
        lookahead: false,
        captureSeedStays: false,
        leftoverTo: 'opponent',
      },
      iteration: 3,
      counters: { samples: 10 },
      weights: tensors(bad),
      lastEvaluation: null,
    });
    const good = join(dir, 'good.json');
    writeFileSync(good, encodeCheckpoint(payload(false)));
    expect(loadPolicy(good).weights.hidden[0]?.kernel[2]).toBeCloseTo(0.1);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, encodeCheckpoint(payload(true)));
    expect(readCheckpointPayload(bad)).toBeTruthy();
    expect(() => loadPolicy(bad)).toThrow(
      /checkpoint .*bad\.json is corrupt: tensor hidden_1\/kernel: value 2 is NaN/,
    );
  });
});

function writeGood(dir: string): string {
  const path = join(dir, 'good.json');
  writeFileSync(path, JSON.stringify(policyWith(0.5)));
  return path;
}

describe('policy file errors', () => {
  it('say why a policy cannot be used: missing, corrupt or incompatible', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-policy-errors-'));
    const reasonOf = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        expect(error).toBeInstanceOf(PolicyFileError);
        return (error as PolicyFileError).reason;
      }
      return null;
    };
    expect(reasonOf(() => loadPolicy(join(dir, 'nothing.json')))).toBe('missing');
    expect(reasonOf(() => loadPolicy(dir))).toBe('missing');
    const notJson = join(dir, 'not-json.json');
    writeFileSync(notJson, '{"format":');
    expect(reasonOf(() => loadPolicy(notJson))).toBe('corrupt');
    const file = policyWith(0.5) as { network: { inputSize: number } };
    file.network.inputSize += 1;
    expect(reasonOf(() => decodePolicyFile(file, 'x'))).toBe('incompatible');
  });
});

describe('the policy file checksum', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-policy-checksum-'));
  /** The pretrained policy as parsed, with whatever change, written to `name`. */
  const pretrainedAs = (name: string, change: (file: Record<string, unknown>) => void) => {
    const file = JSON.parse(readFileSync('models/pretrained/policy.json', 'utf8'));
    change(file);
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(file, null, 2));
    return path;
  };
  // The other capture rule: the inputs still fit, so the file decodes and plays.
  const shippedRules = loadPolicy('models/pretrained/policy.json').rules;
  const swap = (file: Record<string, unknown>) => {
    file.rules = { ...shippedRules, captureSeedStays: !shippedRules.captureSeedStays };
  };

  it('is written into policy files, and a reformatted file still matches it', () => {
    const path = pretrainedAs('reformatted.json', () => {});
    expect(readFileSync(path, 'utf8')).toMatch(/"checksum": "[0-9a-f]{64}"/);
    expect(loadPolicy(path).observation).toEqual({
      encoding: 'thermometer',
      lookahead: true,
      lookaheadEncoding: 'counts',
    });
    expect(readPolicyFile(path).weights.inputSize).toBe(278);
  });

  it('refuses a file edited after it was written, naming it (other rules swapped in)', () => {
    const path = pretrainedAs('swapped.json', swap);
    const message = `policy ${path} is corrupt: checksum mismatch (the file was edited or damaged after it was written)`;
    expect(() => loadPolicy(path)).toThrow(message);
    expect(() => loadPolicy(path)).toThrow(expect.objectContaining({ reason: 'corrupt' }));
    expect(() => readPolicyFile(path)).toThrow(`policy file ${path} is corrupt: checksum mismatch`);
    expect(() => validatePolicyText(readFileSync(path, 'utf8'), 'the result')).toThrow(
      'the result is corrupt: checksum mismatch',
    );
  });

  it('is not needed: a file written before policy files had one still loads', () => {
    const path = pretrainedAs('old.json', (file) => {
      delete file.checksum;
    });
    expect(loadPolicy(path).weights.inputSize).toBe(278);
    // Without a checksum nothing tells the swap apart: it loads, as before.
    const swappedOld = pretrainedAs('swapped-old.json', (file) => {
      delete file.checksum;
      swap(file);
    });
    expect(loadPolicy(swappedOld).rules.captureSeedStays).toBe(!shippedRules.captureSeedStays);
  });

  it('covers every field: the shipped policy matches it, and each kind of edit is caught', () => {
    expect(() => loadPolicy('models/pretrained/policy.json')).not.toThrow();
    for (const [name, change] of [
      [
        'rules',
        (f: Record<string, unknown>) => ((f.rules as { leftoverTo: string }).leftoverTo = 'owner'),
      ],
      [
        'source',
        (f: Record<string, unknown>) => ((f.source as { iteration: number }).iteration = 1),
      ],
      [
        'evaluation',
        (f: Record<string, unknown>) => ((f.evaluation as Record<string, number>).random = 0.123),
      ],
    ] as const) {
      expect(() => loadPolicy(pretrainedAs(`${name}.json`, change)), name).toThrow(
        /checksum mismatch/,
      );
    }
  });
});

import { readFileSync } from 'node:fs';
import { PolicyFileError } from './errors.ts';
import type { MlpWeights } from './mlp-runner.ts';
import { checkPolicyChecksum } from './policy-checksum.ts';
import { decodePolicyFile, type PolicyFile } from './policy-file.ts';

/** Reads and validates a policy file from disk (Node only): checksum, schema, shapes. */
export function readPolicyFile(path: string): { file: PolicyFile; weights: MlpWeights } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PolicyFileError(
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable',
      `cannot read policy file ${path}: ${(error as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PolicyFileError('corrupt', `policy file ${path} is corrupt: not valid JSON`);
  }
  checkPolicyChecksum(data, `policy file ${path}`);
  return decodePolicyFile(data, path);
}

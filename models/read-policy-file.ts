import { BoundedReadError, readTextBounded } from '../files/read-bounded.ts';
import { PolicyFileError } from './errors.ts';
import { MAX_POLICY_FILE_BYTES } from './load-policy.ts';
import type { MlpWeights } from './mlp-runner.ts';
import { checkPolicyChecksum } from './policy-checksum.ts';
import { decodePolicyFile, type PolicyFile } from './policy-file.ts';

/** Reads and validates a policy file from disk (Node only): size cap, checksum, schema, shapes. */
export function readPolicyFile(path: string): { file: PolicyFile; weights: MlpWeights } {
  let text: string;
  try {
    text = readTextBounded(path, {
      what: `policy file ${path}`,
      kind: 'a policy file',
      maxBytes: MAX_POLICY_FILE_BYTES,
    });
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    throw new PolicyFileError(error.reason === 'missing' ? 'missing' : 'unreadable', error.message);
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

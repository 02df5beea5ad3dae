import { PolicyFileError } from './errors.ts';
import type { PolicyFile } from './policy-file.ts';
import { sha256Hex } from './sha256.ts';

/**
 * The checksum of a policy file (Node only; the browser page gets its policy
 * from a server that checked it): the sha256 of the file's JSON text without
 * its `checksum` field, keys in the order written, as a checkpoint's checksum
 * covers its payload. It catches a file edited or damaged by hand (an
 * observation encoding swapped for another of the same size would otherwise
 * load and play nonsense); reformatting the JSON keeps it valid. Files written
 * before policy files had a checksum have none and still load.
 */
function checksumOf(fields: Record<string, unknown>): string {
  const { checksum: _, ...rest } = fields;
  return sha256Hex(JSON.stringify(rest));
}

/** The text of a policy file, with its checksum after the format fields. */
export function encodePolicyFile(file: PolicyFile): string {
  const { format, formatVersion, checksum: _, ...rest } = file;
  const checksum = checksumOf({ format, formatVersion, ...rest });
  return JSON.stringify({ format, formatVersion, checksum, ...rest });
}

/** Throws a PolicyFileError naming the file when a parsed policy file's checksum does not match. */
export function checkPolicyChecksum(data: unknown, where: string): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
  const fields = data as Record<string, unknown>;
  if (fields.checksum === undefined) return;
  if (typeof fields.checksum !== 'string' || fields.checksum !== checksumOf(fields)) {
    throw new PolicyFileError(
      'corrupt',
      `${where} is corrupt: checksum mismatch (the file was edited or damaged after it was written)`,
    );
  }
}

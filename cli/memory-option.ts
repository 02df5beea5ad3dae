import { totalmem } from 'node:os';
import { memoryText } from '../train/run/memory-limit.ts';
import { UsageError } from './fail.ts';

/** `k`, `m`, `g`, `t`: decimal (KB, MB, GB, TB, as memory is usually quoted) or, with `i`, binary (KiB, ...). */
const POWERS: Readonly<Record<string, number>> = { k: 1, m: 2, g: 3, t: 4 };

/**
 * The `--max-job-memory` option: `nargs: 1` hands it the next word whatever
 * it looks like, so that `-1GB` reaches memoryFromArg (yargs read it as flags).
 */
export const maxJobMemoryOption = {
  type: 'string',
  nargs: 1,
  describe:
    "the most memory one training run or shard may need, estimated from its settings before it starts, e.g. 4GB, 512MB or 1.5GiB, up to the machine's (default: a quarter of the machine's, shared by --concurrency); larger jobs are refused",
} as const;

/**
 * The bytes of a memory amount such as `4GB`, `512MB`, `1.5GiB` or `8G`,
 * above 0 and at most `machine` bytes (this machine's memory), whatever the
 * unit. Throws a UsageError naming the option, the value and what is accepted.
 */
export function memoryFromArg(option: string, text: string, machine = totalmem()): number {
  const match = /^(\d+(?:\.\d*)?|\.\d+)\s*([kmgt])(i?)b?$/i.exec(String(text).trim());
  const bytes =
    match === null
      ? Number.NaN
      : Number(match[1]) *
        (match[3] === '' ? 1000 : 1024) ** (POWERS[(match[2] as string).toLowerCase()] as number);
  if (!(bytes > 0 && bytes <= machine)) {
    throw new UsageError(
      `invalid ${option} '${String(text)}': expected an amount of memory above 0 and up to this machine's ${memoryText(machine)}, such as 512MB, 4GB or 1.5GiB`,
    );
  }
  return Math.floor(bytes);
}

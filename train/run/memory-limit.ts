import type { MemoryEstimate } from './memory-estimate.ts';

/** `3.9 GB`, `640 MB`: decimal units, as memory is usually quoted. */
export function memoryText(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  return `${Math.max(1, Math.round(bytes / 1e6))} MB`;
}

/**
 * Why `estimate` does not fit in `limit` bytes, in one line naming the
 * largest part and the settings that size it (`what` is the work, `where`
 * the limit: "this worker's --max-job-memory"); null when it fits.
 */
export function overMemoryLimit(
  estimate: MemoryEstimate,
  limit: number,
  what: string,
  where: string,
): string | null {
  if (estimate.bytes <= limit) return null;
  const largest = estimate.parts[0];
  const because =
    largest === undefined
      ? ''
      : `; most of it is ${largest.what}, ${memoryText(largest.bytes)} (${largest.settings.join(', ')}): lower ${largest.settings.map((s) => s.split(' ')[0]).join(' or ')}`;
  return `${what} needs about ${memoryText(estimate.bytes)} of memory, more than ${where} (${memoryText(limit)})${because}`;
}

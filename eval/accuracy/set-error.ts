/** A bad accuracy set or set file: names the file, the line and what is wrong. */
export class AccuracySetError extends Error {
  override name = 'AccuracySetError';
}

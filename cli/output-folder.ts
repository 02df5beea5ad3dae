import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, UsageError } from './errors.ts';

/**
 * Creates `dir` (and its parents) and checks that files can be written there,
 * before a command spends minutes on the work whose results go there: a bad
 * `--out` fails at once, naming the flag and the reason, not after the games.
 */
export function prepareOutputFolder(dir: string, flag = '--out'): string {
  if (dir.trim() === '') throw new UsageError(`${flag} needs a folder, got an empty string`);
  const path = resolve(dir);
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'it or a folder above it is a file'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'it is not writable'
          : error instanceof Error
            ? error.message
            : String(error);
    throw new CliError(`${flag} ${dir}: cannot write the results there: ${why}`);
  }
  return path;
}

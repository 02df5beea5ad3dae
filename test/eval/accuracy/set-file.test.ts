import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccuracySetError, readAccuracySet } from '../../../eval/accuracy/accuracy-set.ts';
import { ACCURACY_SETS } from '../../../eval/accuracy/shipped-sets.ts';
import { MAIN_TEXT } from './set-texts.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-set-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The error reading `path` throws: an AccuracySetError (a user's mistake, one line). */
function refusal(path: string): string {
  try {
    readAccuracySet(path);
  } catch (err) {
    expect(err).toBeInstanceOf(AccuracySetError);
    return (err as Error).message;
  }
  throw new Error(`${path} was read`);
}

/** What a read set holds, without the path it was read from. */
function contents(path: string) {
  const { header, rules, positions } = readAccuracySet(path);
  return { header, rules, positions };
}

describe('reading an accuracy set file', () => {
  const shipped = contents(ACCURACY_SETS.main as string);

  it('reads a copy with CRLF line ends (a Windows checkout) as the set itself', () => {
    const crlf = file('crlf.jsonl', MAIN_TEXT.replaceAll('\n', '\r\n'));
    expect(contents(crlf)).toEqual(shipped);
  });

  it('reads a copy that starts with a UTF-8 byte order mark, and one without its last newline', () => {
    expect(contents(file('bom.jsonl', `\uFEFF${MAIN_TEXT}`))).toEqual(shipped);
    expect(contents(file('bom-crlf.jsonl', `\uFEFF${MAIN_TEXT.replaceAll('\n', '\r\n')}`))).toEqual(
      shipped,
    );
    expect(contents(file('no-newline.jsonl', MAIN_TEXT.trimEnd()))).toEqual(shipped);
  });

  it('refuses a folder in one line naming it', () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    expect(refusal(folder)).toBe(`accuracy set ${folder} is a folder, not an accuracy set file`);
  });

  it('refuses a 700 MB file by its size, before reading it, naming the path and the cap', () => {
    const huge = join(dir, 'huge.jsonl');
    // Sparse: 700 MB of holes take no room on the disk, and are never read.
    writeFileSync(huge, '');
    truncateSync(huge, 700_000_000);
    expect(refusal(huge)).toBe(
      `accuracy set ${huge} is 667.6 MiB, more than the 64 MiB an accuracy set file may be`,
    );
  });

  it.skipIf(process.platform === 'win32')(
    'refuses a file that is not a regular one (/dev/zero) instead of reading it for ever',
    () => {
      expect(refusal('/dev/zero')).toBe(
        'accuracy set /dev/zero is not a regular file (a device, a pipe or a socket): give an accuracy set file',
      );
    },
  );
});

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AccuracySetError } from '../../../eval/accuracy/accuracy-set.ts';
import {
  ACCURACY_SETS,
  loadAccuracySet,
  readShippedAccuracySet,
  SHIPPED_SET_SHA256,
} from '../../../eval/accuracy/shipped-sets.ts';
import { MAIN_TEXT, plantedLine } from './set-texts.ts';

const dir = mkdtempSync(join(tmpdir(), 'ayoayo-shipped-sets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The main set with every fourth position's values planted, its checksum made again. */
function plantedMain(): string {
  const [header, ...lines] = MAIN_TEXT.trimEnd().split('\n') as [string, ...string[]];
  const planted = lines.map((line, i) => (i % 4 === 0 ? plantedLine(line) : line));
  const parsed = JSON.parse(header) as Record<string, unknown>;
  parsed.sha256 = createHash('sha256').update(planted.join('\n')).digest('hex');
  return `${[JSON.stringify(parsed), ...planted].join('\n')}\n`;
}

describe('the shipped accuracy sets', () => {
  it('are pinned by the sha256 of their files', () => {
    expect(Object.keys(SHIPPED_SET_SHA256).sort()).toEqual(Object.keys(ACCURACY_SETS).sort());
    for (const [name, path] of Object.entries(ACCURACY_SETS)) {
      expect(createHash('sha256').update(readFileSync(path)).digest('hex'), name).toBe(
        SHIPPED_SET_SHA256[name],
      );
      expect(loadAccuracySet(name).path).toBe(path);
    }
  });

  it('refuses a changed copy where a shipped set is read from, though its own checksum matches', () => {
    const path = join(dir, 'main.jsonl');
    writeFileSync(path, plantedMain());
    const error = (() => {
      try {
        readShippedAccuracySet('main', path);
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(AccuracySetError);
    const pinned = (SHIPPED_SET_SHA256.main as string).slice(0, 12);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^accuracy set 'main' \\(${path}\\) was changed: its sha256 is [0-9a-f]{12}\\.\\.\\., not the ${pinned}\\.\\.\\. this version of ayoayo ships; restore it \\(git checkout -- eval/accuracy/sets/main\\.jsonl in a clone, or install ayoayo again\\)$`,
      ),
    );
  });

  it('reads a CRLF copy with a byte order mark of a shipped set as the set itself', () => {
    const path = join(dir, 'main-crlf.jsonl');
    writeFileSync(path, `\uFEFF${MAIN_TEXT.replaceAll('\n', '\r\n')}`);
    const copy = readShippedAccuracySet('main', path);
    const shipped = loadAccuracySet('main');
    expect(copy.positions).toEqual(shipped.positions);
    expect(copy.header).toEqual(shipped.header);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { otherRulesLine } from '../../agents/network/rules-note.ts';
import { DEFAULT_RULES, resolveRules } from '../../env/index.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a network playing under other rules than it was trained under', () => {
  it('is named in one line per agent, and only when the rule options differ', () => {
    const owner = resolveRules({ leftoverTo: 'owner' });
    expect(otherRulesLine('policy:x', DEFAULT_RULES, DEFAULT_RULES)).toBeNull();
    expect(otherRulesLine('policy:x', owner, DEFAULT_RULES)).toBe(
      "ayoayo: policy:x's network was trained under captureSeedStays=false,leftoverTo=owner and plays here under captureSeedStays=false,leftoverTo=opponent; its lookahead features follow this game's rules",
    );

    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-rules-note-'));
    const path = join(dir, 'policy');
    writeRandomPolicy(
      path,
      { encoding: 'counts', lookahead: true, lookaheadEncoding: 'counts' },
      5,
      owner,
    );
    const eval_ = (rules: string) =>
      spawnSync(
        process.execPath,
        [
          'bin/ayoayo.js',
          'eval',
          '--agents',
          `random,policy:${path}`,
          '--games',
          '2',
          '--workers',
          '2',
          '--rules',
          rules,
        ],
        { cwd: root, encoding: 'utf8', timeout: 60_000 },
      );
    const other = eval_('leftoverTo=opponent');
    expect(other.status).toBe(0);
    const notes = other.stderr.split('\n').filter((l) => l.includes('was trained under'));
    expect(notes).toEqual([otherRulesLine(`policy:${path}`, owner, DEFAULT_RULES)]);
    const same = eval_('leftoverTo=owner');
    expect(same.status).toBe(0);
    expect(same.stderr).not.toContain('was trained under');
  });
});

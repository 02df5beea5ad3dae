import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { resolveRules } from '../../env/index.ts';
import { buildEndgame, ENDGAME_VERSION } from '../../solve/index.ts';

/**
 * sha256 of the bounds (every lo, then every hi) of the table of 8 seeds under
 * each rule set, by ENDGAME_VERSION. A cached table is read only by code of
 * its version, so a change to buildEndgame or to the engine's moves that
 * changes what a table holds must come with a new version: add it here with
 * its hashes, and keep the old ones.
 */
const PINNED: Record<number, Record<string, string>> = {
  1: {
    'captureSeedStays=false,leftoverTo=opponent':
      '8e873ef5851d3f6506e5f564fe5eca6c9dca318bf0c2ada72e46798f73bf4e3a',
    'captureSeedStays=true,leftoverTo=opponent':
      '8f72f1ddcd0672287c1d164aab3245cdcad447c20acdfa6359fd6748f7de8ad6',
    'captureSeedStays=false,leftoverTo=owner':
      'e585aa57bf8694a4b4acd59a1e2833bc34f8a387651be5294e6e60212fc83572',
  },
};

describe('ENDGAME_VERSION', () => {
  it('names what a table holds: a small table built now is the one pinned for this version', () => {
    const hashes: Record<string, string> = {};
    for (const rules of [
      resolveRules({}),
      resolveRules({ captureSeedStays: true }),
      resolveRules({ leftoverTo: 'owner' }),
    ]) {
      const table = buildEndgame(8, rules);
      const key = `captureSeedStays=${rules.captureSeedStays},leftoverTo=${rules.leftoverTo}`;
      hashes[key] = createHash('sha256').update(table.lo).update(table.hi).digest('hex');
    }
    expect(
      hashes,
      `the tables of version ${ENDGAME_VERSION} changed: bump ENDGAME_VERSION (solve/endgame/build.ts) and pin the new hashes here`,
    ).toEqual(PINNED[ENDGAME_VERSION]);
  });

  it('changes with what a table holds: no two versions pin the same tables', () => {
    const seen = new Map<string, number>();
    for (const [version, hashes] of Object.entries(PINNED)) {
      for (const hash of Object.values(hashes)) {
        expect(seen.get(hash), `version ${version} pins a table of version ${seen.get(hash)}`).toBe(
          undefined,
        );
        seen.set(hash, Number(version));
      }
    }
  });
});

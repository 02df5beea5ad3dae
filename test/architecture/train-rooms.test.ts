import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYERS, type SourceFile } from './layers.ts';
import { algorithmImports, roomOf, roomViolations } from './train-rooms.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(ts|mts|js|mjs)$/;

function sourcesUnder(dir: string): SourceFile[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.parentPath.includes('dist'),
    )
    .map((entry) => {
      const path = relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/');
      return { path, text: readFileSync(join(root, path), 'utf8') };
    });
}

describe('the rooms of train/', () => {
  it('every file of train/ is in a room, and imports only its own room and those below', () => {
    const files = sourcesUnder('train');
    expect(files.length).toBeGreaterThan(50);
    expect(roomViolations(files)).toEqual([]);
  });

  it('nothing outside an algorithm’s folder imports it but the registration', () => {
    expect(algorithmImports(LAYERS.flatMap(sourcesUnder))).toEqual([]);
  });
});

describe('roomViolations and algorithmImports', () => {
  it('report an import up the rooms, a file in no room and an algorithm reached from outside', () => {
    const files: SourceFile[] = [
      { path: 'train/shards/protocol.ts', text: "import { x } from '../algorithm/registry.ts';" },
      {
        path: 'train/algorithm/registry.ts',
        text: "import type { Y } from '../shards/protocol.ts';",
      },
      { path: 'train/loose.ts', text: '' },
      {
        path: 'queue/shard-job.ts',
        text: "import { shardCodec } from '../train/expert-iteration/shard-codec.ts';",
      },
      { path: 'train/builtin-algorithms.ts', text: "import { p } from './ppo/algorithm.ts';" },
    ];
    expect(roomOf('train/shards/protocol.ts')).toBeLessThan(roomOf('train/algorithm/registry.ts'));
    expect(roomViolations(files)).toEqual([
      'train/shards/protocol.ts -> ../algorithm/registry.ts: a room of train/ imports one above it',
      'train/loose.ts: in no room of train/ (test/architecture/train-rooms.ts)',
    ]);
    expect(algorithmImports(files)).toEqual([
      'queue/shard-job.ts -> ../train/expert-iteration/shard-codec.ts: train/expert-iteration/ is reached only through train/builtin-algorithms.ts',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { LAYERS, type SourceFile, sourcesUnder } from './layers.ts';
import { algorithmImports, roomOf, roomViolations } from './train-rooms.ts';

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

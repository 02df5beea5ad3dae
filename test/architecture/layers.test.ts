import { describe, expect, it } from 'vitest';
import {
  importCycles,
  importsOf,
  LAYERS,
  layerViolations,
  type SourceFile,
  sourcesUnder,
} from './layers.ts';

describe('the layers of the repository', () => {
  it('every import points down the allowed directions (docs/architecture.md)', () => {
    const files = LAYERS.flatMap(sourcesUnder);
    expect(files.length).toBeGreaterThan(100);
    expect(layerViolations(files)).toEqual([]);
  });

  it('has no import cycles, dynamic imports included', () => {
    expect(importCycles(LAYERS.flatMap(sourcesUnder))).toEqual([]);
  });
});

describe('importCycles', () => {
  it('finds a loop through a dynamic import and leaves a tree alone', () => {
    const files: SourceFile[] = [
      { path: 'cli/fail.ts', text: "const r = await import('./error-report.ts');" },
      { path: 'cli/error-report.ts', text: "import { CliError } from './fail.ts';" },
      { path: 'cli/main.ts', text: "import { x } from './fail.ts';" },
      { path: 'env/a.ts', text: "import { b } from './b.ts';" },
      { path: 'env/b.ts', text: '' },
    ];
    expect(importCycles(files)).toEqual([['cli/error-report.ts', 'cli/fail.ts']]);
  });
});

describe('layerViolations', () => {
  it('reads static, dynamic, type-only and URL imports', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../agents/b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('../models/d.ts');",
      "const e = new URL('../train/e.ts', import.meta.url);",
    ].join('\n');
    expect(importsOf({ path: 'eval/x.ts', text })).toEqual([
      './a.ts',
      '../agents/b.ts',
      './c.ts',
      '../models/d.ts',
      '../train/e.ts',
    ]);
  });

  it('reports each kind of wrong-way import', () => {
    const files: SourceFile[] = [
      {
        path: 'env/gym/single-agent-env.ts',
        text: "import type { Agent } from '../../agents/agent.ts';",
      },
      {
        path: 'eval/report.ts',
        text: "import { writeFileAtomic } from '../train/atomic-write.ts';",
      },
      {
        path: 'models/load-policy.ts',
        text: "const m = new URL('../agents/network/policy-agent.ts', import.meta.url);",
      },
      {
        path: 'models/load-policy.ts',
        text: "import { readCheckpoint } from '../train/checkpoint.ts';",
      },
      {
        path: 'env/rules.ts',
        text: "import { readFileSync } from 'node:fs';\nimport { join } from 'path';",
      },
      { path: 'env/game.ts', text: "import { observationSize } from './gym/observation.ts';" },
      { path: 'serve/x.ts', text: "import { main } from '../cli/main.ts';" },
      { path: 'web/src/x.ts', text: "import { createServer } from 'node:http';" },
      {
        path: 'solve/search.ts',
        text: "import { MinimaxSearch } from '../agents/minimax-search.ts';",
      },
      { path: 'solve/table.ts', text: "import { writeFileSync } from 'node:fs';" },
      { path: 'solve/solver.ts', text: "import { cacheDir } from '../files/cache-dir.ts';" },
      { path: 'files/f.ts', text: "import { solve } from '../solve/index.ts';" },
      { path: 'threads/pool.ts', text: "import { createAgent } from '../agents/spec.ts';" },
      { path: 'threads/worker.ts', text: "import { runChunk } from '../eval/chunk.ts';" },
      { path: 'web/src/y.ts', text: "import { ThreadPool } from '../../threads/pool.ts';" },
      { path: 'agents/kind-registry.ts', text: "import { readFileSync } from 'node:fs';" },
    ];
    expect(layerViolations(files)).toEqual([
      'env/gym/single-agent-env.ts -> ../../agents/agent.ts: env may not import agents',
      'eval/report.ts -> ../train/atomic-write.ts: eval may not import train',
      'models/load-policy.ts -> ../agents/network/policy-agent.ts: models may not import agents',
      'models/load-policy.ts -> ../train/checkpoint.ts: models may not import train',
      'env/rules.ts -> node:fs: this folder must import nothing from Node',
      'env/rules.ts -> path: this folder must import nothing from Node',
      'env/game.ts -> ./gym/observation.ts: the engine may not import env/gym',
      'serve/x.ts -> ../cli/main.ts: serve may not import cli',
      'web/src/x.ts -> node:http: this folder must import nothing from Node',
      'solve/search.ts -> ../agents/minimax-search.ts: solve may not import agents',
      'solve/table.ts -> node:fs: this folder must import nothing from Node',
      "solve/solver.ts -> ../files/cache-dir.ts: this file must run in a browser; files is Node's",
      'files/f.ts -> ../solve/index.ts: files may not import solve',
      'threads/pool.ts -> ../agents/spec.ts: threads may not import agents',
      'threads/worker.ts -> ../eval/chunk.ts: threads may not import eval',
      "web/src/y.ts -> ../../threads/pool.ts: this file must run in a browser; threads is Node's",
      'agents/kind-registry.ts -> node:fs: this folder must import nothing from Node',
    ]);
  });

  it('accepts imports down the layers, packages, and Node built-ins above the engine', () => {
    const files: SourceFile[] = [
      { path: 'train/t.ts', text: "import { x } from '../models/m.ts';\nimport { z } from 'zod';" },
      {
        path: 'models/m.ts',
        text: "import { y } from '../files/e.ts';\nimport { readFileSync } from 'node:fs';",
      },
      {
        path: 'solve/endgame/cache/c.ts',
        text: "import { cacheDir } from '../../../files/cache-dir.ts';\nimport { join } from 'node:path';",
      },
      {
        path: 'env/gym/g.ts',
        text: "import { core } from '../index.ts';\nimport * as z from 'zod';",
      },
      { path: 'cli/c.ts', text: "import { w } from '../web/build.ts';" },
      { path: 'solve/s.ts', text: "import { core } from '../env/index.ts';" },
      { path: 'agents/a.ts', text: "import { Solver } from '../solve/solver.ts';" },
      { path: 'eval/e.ts', text: "import { ThreadPool } from '../threads/pool.ts';" },
      {
        path: 'solve/book/cache/b.ts',
        text: "import { ThreadPool } from '../../../threads/pool.ts';",
      },
      {
        path: 'agents/network/n.ts',
        text: "import { MlpRunner } from '../../models/mlp-runner.ts';",
      },
    ];
    expect(layerViolations(files)).toEqual([]);
  });
});

// Runs every bench/*.bench.ts file (sorted by name), or only those whose file
// name contains one of the words given on the command line:
//
//   npm run bench              # all
//   npm run bench -- engine    # only files whose name contains "engine"
//
// Each measurement is printed to stdout as one JSON line, with the name of its
// file under `bench` unless the measurement sets `bench` itself.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerBuiltinAlgorithms } from '../train/builtin-algorithms.ts';
import type { BenchModule, Measurement } from './types.ts';

// The benches meet training configs as the command line does.
registerBuiltinAlgorithms();

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const selected = files.filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)));

if (selected.length === 0) {
  if (filters.length > 0) {
    process.stderr.write(`bench: no bench/*.bench.ts file matches ${filters.join(', ')}\n`);
    process.exit(1);
  }
  process.stderr.write('bench: no bench/*.bench.ts files yet\n');
}

for (const file of selected) {
  const bench = file.slice(0, -'.bench.ts'.length);
  const mod = (await import(pathToFileURL(`${dir}${file}`).href)) as Partial<BenchModule>;
  if (typeof mod.run !== 'function') {
    process.stderr.write(`bench: ${file} does not export an async function run(emit)\n`);
    process.exit(1);
  }
  const emit = (m: Measurement): void => {
    process.stdout.write(`${JSON.stringify({ bench, ...m })}\n`);
  };
  await mod.run(emit);
}

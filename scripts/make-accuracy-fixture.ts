// Generates an accuracy set (docs/accuracy.md): games between strong agents,
// positions sampled per phase and solved exactly, the critical ones kept.
//   npx tsx scripts/make-accuracy-fixture.ts --seed 1 --positions 1000 --out eval/accuracy/sets/main.jsonl
//   npx tsx scripts/make-accuracy-fixture.ts --seed 2 --positions 2500 --out eval/accuracy/sets/holdout.jsonl \
//     --exclude eval/accuracy/sets/main.jsonl
// Stopped and started again with the same settings, it goes on from OUT.partial.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { registerNetworkKinds } from '../agents/network/kinds.ts';
import { splitAgentList } from '../agents/spec.ts';
import { gamesProgressBar } from '../display/progress.ts';
import { formatRules, OTHER_RULES, parseRulesText, resolveRules } from '../env/index.ts';
import { readAccuracySet } from '../eval/accuracy/accuracy-set.ts';
import {
  DEFAULT_GENERATOR_AGENTS,
  DEFAULT_NODES,
  DEFAULT_OPENING_PLIES,
  generateAccuracySet,
} from '../eval/accuracy/generate.ts';
import { loadEndgameShowingProgress } from '../solve/endgame/cache/progress.ts';
import { DEFAULT_ENDGAME_SEEDS, MAX_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

const USAGE = `usage: tsx scripts/make-accuracy-fixture.ts --seed S --positions N --out FILE
  [--agents A,B,...] [--nodes N] [--endgame SEEDS] [--opening-plies MIN-MAX] [--workers N]
  [--exclude FILE]... [--rules ${formatRules(OTHER_RULES)}] [--quiet]`;

function fail(why: string): never {
  process.stderr.write(`make-accuracy-fixture: ${why}\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < least)
    fail(`--${name} must be an integer >= ${least}, got ${text}`);
  return n;
}

/** The solver's version: a hash of solve/'s sources, and the commit that last changed them. */
function solverVersion(): string {
  const dir = new URL('../solve/', import.meta.url);
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files)
    hash.update(relative(fileURLToPath(dir), file)).update(readFileSync(file));
  let commit = '';
  try {
    commit = execFileSync('git', ['log', '-1', '--format=%h', '--', 'solve'], {
      cwd: fileURLToPath(new URL('..', dir)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // Not a clone: the hash alone names the sources.
  }
  return `solve@${hash.digest('hex').slice(0, 12)}${commit === '' ? '' : ` (commit ${commit})`}`;
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      seed: { type: 'string' },
      positions: { type: 'string' },
      out: { type: 'string' },
      agents: { type: 'string', multiple: true },
      nodes: { type: 'string' },
      endgame: { type: 'string' },
      'opening-plies': { type: 'string' },
      workers: { type: 'string' },
      exclude: { type: 'string', multiple: true },
      rules: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
}
try {
  args = parse();
} catch (err) {
  fail((err as Error).message);
}
const seed = integer('seed', args.seed, 0) ?? fail('--seed is required');
const positions = integer('positions', args.positions, 1) ?? fail('--positions is required');
const out = args.out ?? fail('--out is required');
const range = (args['opening-plies'] ?? DEFAULT_OPENING_PLIES.join('-')).split('-').map(Number);
if (range.length !== 2 || range.some((n) => !Number.isInteger(n))) {
  fail(`--opening-plies must be MIN-MAX, got ${args['opening-plies']}`);
}
const agents = args.agents !== undefined ? splitAgentList(args.agents) : DEFAULT_GENERATOR_AGENTS;
const nodes = integer('nodes', args.nodes, 1) ?? DEFAULT_NODES;
const endgameSeeds = integer('endgame', args.endgame, 0) ?? DEFAULT_ENDGAME_SEEDS;
if (endgameSeeds > MAX_ENDGAME_SEEDS)
  fail(`--endgame must be at most ${MAX_ENDGAME_SEEDS}, got ${endgameSeeds}`);
const workers = integer('workers', args.workers, 0);
const command = [
  'scripts/make-accuracy-fixture.ts',
  `--seed ${seed}`,
  `--positions ${positions}`,
  ...(args.agents !== undefined ? [`--agents '${agents.join(',')}'`] : []),
  ...(args.nodes !== undefined ? [`--nodes ${nodes}`] : []),
  ...(args.endgame !== undefined ? [`--endgame ${endgameSeeds}`] : []),
  ...(args['opening-plies'] !== undefined ? [`--opening-plies ${args['opening-plies']}`] : []),
  ...(args.rules !== undefined ? [`--rules ${args.rules}`] : []),
  ...(args.exclude ?? []).map((f) => `--exclude ${f}`),
].join(' ');

const rules = resolveRules(args.rules !== undefined ? parseRulesText(args.rules) : {});
if (endgameSeeds > 0) {
  // Built (or checked) here once, so that the worker threads only read the cache.
  loadEndgameShowingProgress(endgameSeeds, rules, { quiet: args.quiet });
}
const bar = gamesProgressBar({ quiet: args.quiet, label: 'critical', unit: 'positions' });
try {
  const exclude = (args.exclude ?? []).map(readAccuracySet);
  const result = await generateAccuracySet({
    seed,
    positions,
    out,
    agents,
    nodes,
    endgameSeeds,
    openingPlies: [range[0] as number, range[1] as number],
    ...(workers !== undefined ? { workers } : {}),
    ...(args.rules !== undefined ? { rules: parseRulesText(args.rules) } : {}),
    exclude,
    generator: command,
    solver: solverVersion(),
    onProgress: (p) => bar.update(Math.min(p.positions, p.target), p.target),
  });
  bar.stop();
  const { header } = result;
  const resumed = result.resumedGames > 0 ? ` (${result.resumedGames} resumed)` : '';
  process.stderr.write(
    `wrote ${result.path}: ${header.positions} critical positions from ${header.games} games${resumed}\n`,
  );
  for (const [phase, c] of Object.entries(header.phases)) {
    process.stderr.write(
      `  ply ${phase}: ${c.sampled} sampled, ${c.critical} critical (${c.duplicate} repeated), ${c.notCritical} not critical, ${c.unproven} unproven (dropped)\n`,
    );
  }
} catch (err) {
  bar.stop();
  process.stderr.write(`make-accuracy-fixture: ${(err as Error).message}\n`);
  process.exit(1);
}

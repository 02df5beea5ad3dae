import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { checkAgentSpec, createAgent } from '../../agents/spec.ts';
import {
  DEFAULT_RULES,
  initialPosition,
  legalActions,
  Random,
  resolveRules,
} from '../../env/index.ts';
import { cacheDir } from '../../files/cache-dir.ts';
import { endgamePath } from '../../solve/endgame/cache/table-cache.ts';
import { endgameOffsets } from '../../solve/index.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

// The solver-backed agents' table of 16 seeds takes a minute to build: here, 6.
vi.mock('../../solve/endgame/cache/table-cache.ts', async (original) => ({
  ...(await original<typeof import('../../solve/endgame/cache/table-cache.ts')>()),
  DEFAULT_ENDGAME_SEEDS: 6,
}));

const homes: string[] = [];
const saved = process.env.XDG_CACHE_HOME;
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

let written: string[] = [];
let tty: boolean | undefined;
beforeEach(() => {
  const home = mkdtempSync(join(tmpdir(), 'ayoayo-solving-agents-'));
  homes.push(home);
  process.env.XDG_CACHE_HOME = home;
  written = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  tty = process.stderr.isTTY;
  process.stderr.isTTY = false;
});
afterEach(() => {
  process.stderr.isTTY = tty as boolean;
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

/** The lines about the endgame table's build. */
const buildLines = (): string[] => written.filter((line) => /^ayoayo: buil/.test(line));
const BOARDS = endgameOffsets(6)[7] as number;
const BUILDING = `ayoayo: building the endgame table of 6 seeds (${BOARDS} boards, ${Math.max(1, Math.round((2 * BOARDS) / 1e3))} KB) into the cache, once\n`;
const BUILT = /^ayoayo: built the endgame table of 6 seeds in \d+\.\d s\n$/;

describe('the solver-backed agents', () => {
  it('build their endgame table when their spec is checked, in the checking thread, saying so; the agent then reads it', async () => {
    await checkAgentSpec('minimax:t=5ms,solve=1');
    expect(buildLines()).toEqual([BUILDING, expect.stringMatching(BUILT)]);
    // Saved before any thread needs it: a tournament's threads read it.
    expect(existsSync(endgamePath(cacheDir(), 6, DEFAULT_RULES))).toBe(true);
    const agent = await createAgent('minimax:t=5ms,solve=1');
    const position = initialPosition();
    const legal = legalActions(position);
    const action = await agent.act(position, {
      legal,
      rng: Random.fromSeed(1),
      rules: DEFAULT_RULES,
    });
    expect(legal).toContain(action);
    await agent.close?.();
    expect(buildLines()).toHaveLength(2);
  });

  it('made without a check (a thread of the queue), build it saying so', async () => {
    const rules = resolveRules({ leftoverTo: 'owner' });
    const agent = await createAgent('minimax:t=5ms,solve=1', { rules });
    await agent.close?.();
    expect(buildLines()).toEqual([BUILDING, expect.stringMatching(BUILT)]);
  });

  it('az with solve=1 too', async () => {
    // Other rules than the test above: a table this thread does not hold yet.
    const rules = resolveRules({ captureSeedStays: true });
    await checkAgentSpec('az:models/pretrained,t=50ms,solve=1', { rules });
    expect(buildLines()).toEqual([BUILDING, expect.stringMatching(BUILT)]);
    expect(existsSync(endgamePath(cacheDir(), 6, rules))).toBe(true);
  });
});

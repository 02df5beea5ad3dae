import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ExternalAgent } from '../../agents/external.ts';
import { RandomAgent } from '../../agents/random.ts';
import { DEFAULT_RULES, initialPosition, legalActions, Random } from '../../env/index.ts';
import { playMatch } from '../../eval/match.ts';
import { pidsRunning } from '../processes.ts';

const fixtures = fileURLToPath(new URL('../fixtures/ext-engines/', import.meta.url));
const engine = (file: string, args = ''): string => `node ${join(fixtures, file)}${args}`;
const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-ext-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Whether a process is still alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const ctx = (legal: readonly number[]) => ({
  legal,
  rng: Random.fromSeed(1),
  rules: DEFAULT_RULES,
});

/** A one-process engine (sed) that answers the first legal action: starts in a millisecond. */
const SED_ENGINE = `sed -u -e 's/.*"legal":\\[\\([0-9]\\).*/{"action":\\1}/'`;

describe('ExternalAgent', () => {
  it('plays whole games with a good engine, sent the documented request fields', async () => {
    const log = join(scratch, 'requests.jsonl');
    const agent = new ExternalAgent(engine('record.mjs', ` ${log}`));
    const result = await playMatch({ a: agent, b: new RandomAgent(), games: 6, seed: 1 });
    await agent.close();
    expect(result.records.every((r) => r.forfeit === null)).toBe(true);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const requests = lines.map((l) => JSON.parse(l.slice(l.indexOf(' ') + 1)));
    // Every move of the engine was asked for: its plies are about half of each game's.
    expect(requests.length).toBeGreaterThan(6 * 5);
    for (const request of requests) {
      expect(Object.keys(request).sort()).toEqual(['legal', 'pits', 'rules', 'stores', 'toMove']);
      expect(request.pits).toHaveLength(12);
      expect(request.stores).toHaveLength(2);
      expect(request.rules).toEqual({ captureSeedStays: false, leftoverTo: 'opponent' });
      expect(request.legal.length).toBeGreaterThan(0);
    }
    // One engine process served all six games (started once and kept).
    expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(1);
  });

  it('forfeits when the engine answers garbage, and the next game goes on', async () => {
    const agent = new ExternalAgent(engine('garbage.mjs'));
    const pos = initialPosition();
    await expect(agent.act(pos, ctx(legalActions(pos)))).rejects.toThrow(
      'answered garbage (not JSON): "e4 e5 Nf3"',
    );
    const result = await playMatch({ a: agent, b: new RandomAgent(), games: 2, seed: 1 });
    await agent.close();
    for (const r of result.records) {
      expect(r.forfeit?.seat).toBe(r.aSeat);
      expect(r.forfeit?.reason).toMatch(/garbage/);
    }
    expect(result.losses).toBe(2);
  });

  it('forfeits on an illegal action', async () => {
    const agent = new ExternalAgent(engine('illegal.mjs'));
    const result = await playMatch({ a: agent, b: new RandomAgent(), games: 2, seed: 1 });
    await agent.close();
    expect(result.losses).toBe(2);
    expect(result.records[0]?.forfeit?.reason).toMatch(
      /answered illegal action \d; legal actions: /,
    );
  });

  it('forfeits an engine that hangs, kills it, and starts a fresh one for the next game', async () => {
    // Tagged, so that hung engines of other test files running alongside are not counted.
    const hung = (): number[] => pidsRunning('hang.mjs\0--hung-forfeit');
    const agent = new ExternalAgent(engine('hang.mjs', ' --hung-forfeit'), {
      moveTimeoutMs: 100,
      startupMs: 400,
    });
    const pos = initialPosition();
    await expect(agent.act(pos, ctx(legalActions(pos)))).rejects.toThrow(
      'did not answer within 500 ms',
    );
    // The hung engine (which ignores SIGTERM) is gone.
    await waitFor(() => hung().length === 0);
    const result = await playMatch({ a: agent, b: new RandomAgent(), games: 2, seed: 1 });
    expect(result.forfeits.a).toBe(2);
    await agent.close();
    await waitFor(() => hung().length === 0);
  });

  it('forfeits when the engine dies, saying how and with its last words', async () => {
    const agent = new ExternalAgent(engine('exits.mjs'));
    const pos = initialPosition();
    await expect(agent.act(pos, ctx(legalActions(pos)))).rejects.toThrow(
      /engine exited with code 3 \(stderr: engine: out of cheese\)/,
    );
    await agent.close();
  });

  it('forfeits when the command cannot run', async () => {
    const agent = new ExternalAgent('/nonexistent/engine-binary');
    const pos = initialPosition();
    await expect(agent.act(pos, ctx(legalActions(pos)))).rejects.toThrow(
      /engine exited with code 127/,
    );
    await agent.close();
  });

  it('kills the whole process group on close, shell wrappers included', async () => {
    const agent = new ExternalAgent(`sh -c 'node ${join(fixtures, 'hang.mjs')} --wrapped; true'`, {
      moveTimeoutMs: 60_000,
    });
    const pos = initialPosition();
    const pending = agent.act(pos, ctx(legalActions(pos)));
    await waitFor(() => pidsRunning('--wrapped').length > 0);
    const pids = pidsRunning('--wrapped');
    await agent.close();
    await expect(pending).rejects.toThrow(/engine was (killed by SIGTERM|stopped)/);
    await waitFor(() => pids.every((pid) => !alive(pid)));
  });
});

describe('ExternalAgent, misbehaving engines', () => {
  it("closes without leaving the program waiting on unref'd handles only (no exit code 13)", () => {
    // Top-level await of many start/answer/close cycles: before the fix, closing
    // awaited an unref'd child and an unref'd timer, and Node gave up with code 13.
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(fixtures, 'close-repeatedly.ts'), SED_ENGINE, '20'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('closed 20\n');
    expect(run.status).toBe(0);
  });

  it('forfeits an engine that writes an endless stdout line, at once and saying so', async () => {
    const agent = new ExternalAgent(engine('giant-line.mjs'), { moveTimeoutMs: 20_000 });
    const pos = initialPosition();
    const started = Date.now();
    await expect(agent.act(pos, ctx(legalActions(pos)))).rejects.toThrow(
      'engine wrote a stdout line longer than 65536 bytes',
    );
    // Long before the move timeout: the line was cut off, not waited for.
    expect(Date.now() - started).toBeLessThan(15_000);
    await agent.close();
  }, 30_000);

  it("keeps only a bounded tail of an engine's stderr for the forfeit message", async () => {
    const agent = new ExternalAgent(engine('stderr-flood.mjs'));
    const pos = initialPosition();
    const error = await agent.act(pos, ctx(legalActions(pos))).then(
      () => null,
      (err: unknown) => err as Error,
    );
    await agent.close();
    expect(error?.message).toMatch(
      /^engine exited with code 4 \(stderr: \.\.\.[a-z ]+ noise last words\)$/,
    );
    // 6 MB were written; the message keeps a few hundred characters of its end.
    expect(error?.message.length).toBeLessThan(500);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

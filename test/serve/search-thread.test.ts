import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES, parsePosition, START_NOTATION } from '../../env/index.ts';
import { RequestError } from '../../serve/act-request.ts';
import { SearchThread, threadInference } from '../../serve/search-thread.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

/** Player 0 to move: action 4 captures 3 + 1 and reaches 26, a win at once (PUCT proves it and stops). */
const WIN_IN_ONE = '2,0,0,0,1,0/3,0,0,0,0,0/22-20/0';

/** How a search's promise settled: its answer, or the RequestError's status, message and headers. */
async function settled<T>(promise: Promise<T>) {
  try {
    return { ok: true as const, value: await promise };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    return {
      ok: false as const,
      status: error.status,
      message: error.message,
      headers: error.headers,
    };
  }
}

describe("the service's search thread", () => {
  let policyPath: string;
  const threads: SearchThread[] = [];
  beforeAll(() => {
    policyPath = writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-search-thread-')));
  });
  afterAll(async () => {
    for (const thread of threads) await thread.close();
  });

  it('stops a search at its time cap with a 503 naming it, refuses more than it queues, and serves again from a fresh thread', async () => {
    // Ten million simulations of the start take minutes on any machine; the cap is seconds.
    const thread = await SearchThread.start({
      policyPath,
      search: 'sims=10000000',
      timeoutSeconds: 8,
      maxWaiting: 0,
    });
    threads.push(thread);
    expect(thread.label).toMatch(/^az sims=10000000,/);
    const long = settled(thread.search(parsePosition(START_NOTATION), DEFAULT_RULES));
    // The thread is busy and no request may wait: refused at once, told when to retry.
    const refused = await settled(thread.search(parsePosition(WIN_IN_ONE), DEFAULT_RULES));
    expect(refused).toMatchObject({
      ok: false,
      status: 503,
      headers: { 'Retry-After': '1' },
      message:
        'the service is busy: a search is running and 0 more wait for it, the most it queues; retry in 1 s',
    });
    expect(await long).toMatchObject({
      ok: false,
      status: 503,
      message:
        'the search did not finish within 8 s, the most a request may take here (serve --search-timeout), its wait for other searches included: it was stopped',
    });
    // The stopped search's thread was ended; a new one answers (a proven win stops PUCT at once).
    const next = await settled(thread.search(parsePosition(WIN_IN_ONE), DEFAULT_RULES));
    expect(next).toMatchObject({ ok: true, value: { action: 4, solved: true, value: 1 } });
  }, 120_000);

  it('runs its networks on code that ending the thread cannot take down: plain, or tfjs; refuses onnx', () => {
    expect((['auto', 'plain', 'tfjs'] as const).map(threadInference)).toEqual([
      'plain',
      'plain',
      'tfjs',
    ]);
    expect(() => threadInference('onnx')).toThrow(
      "--inference onnx cannot run serve's search thread: a search past --search-timeout is stopped by ending its thread",
    );
  });

  it('refuses nonsense limits, and reports a search it cannot make', async () => {
    await expect(
      SearchThread.start({ policyPath, search: 'sims=10', timeoutSeconds: 0 }),
    ).rejects.toThrow('search timeout must be positive, up to a day, got 0 s');
    await expect(
      SearchThread.start({ policyPath, search: 'sims=10', maxWaiting: -1 }),
    ).rejects.toThrow('searches waiting must be a non-negative integer, got -1');
    await expect(
      SearchThread.start({ policyPath: join(policyPath, 'missing.json'), search: 'sims=10' }),
    ).rejects.toThrow(/does not exist/);
  }, 120_000);
});

import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES, START_NOTATION } from '../../env/index.ts';
import { cacheDir } from '../../files/cache-dir.ts';
import { DEFAULT_ENDGAME_SEEDS, endgamePath } from '../../solve/endgame/cache/table-cache.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { type RunningCommand, startCommand } from './command-process.ts';

/** The request that froze `serve --search perfect` for good: the opening under rules with no book. */
const STAYS_REQUEST = JSON.stringify({
  position: START_NOTATION,
  rules: { captureSeedStays: true },
});

/**
 * A cache folder of its own (so that no book another run built for other
 * rules is found), holding the user's endgame table of the default rules
 * where there is one, so that the service reads it instead of building it.
 */
function cacheOfItsOwn(): string {
  const home = mkdtempSync(join(tmpdir(), 'ayoayo-serve-cache-'));
  const table = endgamePath(cacheDir(), DEFAULT_ENDGAME_SEEDS, DEFAULT_RULES);
  if (existsSync(table)) {
    const link = endgamePath(join(home, 'ayoayo'), DEFAULT_ENDGAME_SEEDS, DEFAULT_RULES);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(table, link);
  }
  return home;
}

function post(url: string, body: string): Promise<Response> {
  return fetch(`${url}/act`, { method: 'POST', body });
}

/** Stops the command if a test left it running (SIGKILL: it may be stuck). */
async function killIfRunning(server: RunningCommand | null): Promise<void> {
  await server?.stop('SIGKILL');
}

describe('ayoayo serve stays responsive while it searches', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ayoayo-serve-responsive-'));
    writeRandomPolicy(dir);
  });

  it('answers /health while a search runs, and SIGTERM ends the service at once, the search with it', async () => {
    // Ten million simulations: minutes of search, so it is still running when the service is stopped.
    let server: RunningCommand | null = await startCommand([
      'serve',
      '--policy',
      dir,
      '--port',
      '0',
      '--search',
      'sims=10000000',
    ]);
    try {
      let answered = false;
      const act = post(server.url, JSON.stringify({ position: START_NOTATION })).then(
        (res) => {
          answered = true;
          return res.status;
        },
        () => 'connection closed',
      );
      // One after another: the later ones are surely asked after the search started.
      for (let i = 0; i < 3; i++) {
        const health = await fetch(`${server.url}/health`);
        expect(health.status).toBe(200);
        expect(((await health.json()) as { status: string }).status).toBe('ok');
        expect(answered, 'the search answered before /health').toBe(false);
      }
      const running = server;
      server = null;
      const { code, stderr } = await running.stop('SIGTERM');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      // The search was ended with the service: no move was answered.
      expect(await act).not.toBe(200);
    } finally {
      await killIfRunning(server);
    }
  }, 180_000);

  it('--search perfect refuses, at once and in one line, rules it has no book for, naming the command that builds one', async () => {
    let server: RunningCommand | null = await startCommand(
      ['serve', '--policy', dir, '--port', '0', '--search', 'perfect'],
      { env: { ...process.env, XDG_CACHE_HOME: cacheOfItsOwn() } },
    );
    try {
      const refused = post(server.url, STAYS_REQUEST);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      const res = await refused;
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toBe(
        "--search perfect has no opening book under captureSeedStays=true,leftoverTo=opponent, and without one a position of the opening can take hours to solve (its book and endgame table are of the service's rules, captureSeedStays=false,leftoverTo=opponent): build one with `ayoayo book build --rules captureSeedStays=true,leftoverTo=opponent`, then start the service again",
      );
      const owner = await post(
        server.url,
        JSON.stringify({ position: START_NOTATION, rules: { leftoverTo: 'owner' } }),
      );
      expect(owner.status).toBe(422);
      expect(((await owner.json()) as { error: string }).error).toContain(
        '`ayoayo book build --rules captureSeedStays=false,leftoverTo=owner`',
      );
      // Under the service's own rules the book answers: only S2 wins the start.
      const own = await post(server.url, JSON.stringify({ position: START_NOTATION }));
      expect(own.status).toBe(200);
      expect(await own.json()).toMatchObject({ action: 2, search: { value: 1, solved: true } });
      const running = server;
      server = null;
      expect((await running.stop()).code).toBe(0);
    } finally {
      await killIfRunning(server);
    }
  }, 600_000);
});

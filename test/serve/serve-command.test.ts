import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { START_NOTATION } from '../../env/index.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { startCommand } from './command-process.ts';

describe('ayoayo serve', () => {
  it('serves a run folder on an ephemeral port until Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-serve-cli-'));
    writeRandomPolicy(dir);
    const server = await startCommand(['serve', '--policy', dir, '--port', '0']);
    try {
      expect(server.stdout()).toContain(`Serving ${join(dir, 'policy.json')} on ${server.url}`);
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        status: string;
        policy: { run: string };
      };
      expect(health).toMatchObject({ status: 'ok', policy: { run: 'random-test-policy' } });
      const act = await fetch(`${server.url}/act`, {
        method: 'POST',
        body: JSON.stringify({ position: START_NOTATION }),
      });
      expect(act.status).toBe(200);
      expect(((await act.json()) as { legal: number[] }).legal).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      const { code, stderr } = await server.stop();
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });
});

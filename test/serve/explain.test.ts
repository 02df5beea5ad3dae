import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { parsePosition } from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { createPolicyServer } from '../../serve/http-server.ts';
import { close, listen } from '../../serve/listen.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

const MIDGAME = '0,5,5,5,5,4/4,4,4,4,4,4/0-0/1';

describe('POST /act?explain=1', () => {
  let policy: LoadedPolicy;
  let server: ReturnType<typeof createPolicyServer>;
  let url: string;

  beforeAll(async () => {
    policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-explain-'))));
    server = createPolicyServer(new PolicyService(policy));
    url = await listen(server, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await close(server);
  });

  const act = async (query: string) => {
    const res = await fetch(`${url}/act${query}`, {
      method: 'POST',
      body: JSON.stringify({ position: MIDGAME }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { action: number; observation?: number[] };
  };

  it('returns the observation the network was given, lookahead features included', async () => {
    const encoder = new ObservationEncoder(policy.observation, policy.rules);
    const expected = new Float32Array(encoder.size);
    encoder.encode(parsePosition(MIDGAME).toState(), expected, 0);
    const explained = await act('?explain=1');
    expect(explained.observation).toHaveLength(146);
    expect(explained.observation).toEqual(Array.from(expected));
    const plain = await act('');
    expect(plain).not.toHaveProperty('observation');
    expect(plain.action).toBe(explained.action);
  });
});

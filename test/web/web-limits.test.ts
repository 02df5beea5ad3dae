import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { close, listen } from '../../serve/listen.ts';
import { createWebServer } from '../../web/web-server.ts';

/** A raw connection that sends half a request and then nothing; `closed` gives what it received. */
function halfOpen(url: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return new Promise((resolve) =>
    socket.once('connect', () => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      resolve({ socket, closed });
    }),
  );
}

describe("ayoayo web's server under many slow clients", () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) await close(server);
  });

  it("closes half-open connections as the service does: the request timeout, and at most the cap's worth kept", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ayoayo-web-limits-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>page</title>\n');
    const server = createWebServer({
      root,
      policyJson: null,
      maxConnections: 4,
      requestTimeoutSeconds: 0.5,
    });
    servers.push(server);
    const url = await listen(server, 0, '127.0.0.1');
    // Three times the cap: four served, four over the cap, four closed at once.
    const slow = [];
    for (let i = 0; i < 12; i++) slow.push(await halfOpen(url));
    sockets.push(...slow.map((s) => s.socket));
    // Each is closed (Node's defaults kept them for 60 to 90 s; 1,500 of them for over 75 s).
    const received = await Promise.all(slow.map((s) => s.closed));
    // The served ones are told why; those beyond twice the cap are closed at once, without a word.
    expect(received.slice(0, 4).every((r) => r.startsWith('HTTP/1.1 408 '))).toBe(true);
    expect(received.slice(8)).toEqual(Array(4).fill(''));
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>page</title>');
  }, 30_000);

  it('refuses nonsense limits', () => {
    expect(() => createWebServer({ root: tmpdir(), policyJson: null, maxConnections: 0 })).toThrow(
      'max connections must be a positive integer, got 0',
    );
  });
});

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RequestError } from './act-request.ts';
import { type ConnectionLimits, createLimitedServer } from './limited-server.ts';
import type { PolicyService } from './policy-service.ts';

/** Request bodies larger than this get a 413: a position is well under 200 bytes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

export interface PolicyServerOptions extends ConnectionLimits {
  readonly maxBodyBytes?: number;
}

const ROUTES: Record<string, string> = { '/act': 'POST', '/health': 'GET' };

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  // The client left, or the service is stopping, while its answer was worked on.
  if (res.headersSent || res.destroyed) return;
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Reads the whole body, refusing (413) as soon as it grows past the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new RequestError(413, `request body over ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new RequestError(413, `request body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    // A UTF-8 byte order mark (some Windows tools write one) is not part of the JSON.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new RequestError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}

async function handle(
  service: PolicyService,
  limit: number,
  req: IncomingMessage,
  res: ServerResponse,
  working: () => void,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const method = ROUTES[path];
  if (method === undefined) {
    send(res, 404, { error: `no such endpoint ${path}: use POST /act or GET /health` });
    return;
  }
  if (req.method !== method) {
    send(
      res,
      405,
      { error: `${path} accepts ${method} only, not ${req.method}` },
      { Allow: method },
    );
    return;
  }
  if (path === '/health') {
    send(res, 200, { status: 'ok', policy: service.describe() });
    return;
  }
  const body = parseJson(await readBody(req, limit));
  working();
  send(res, 200, await service.act(body, { explain: url.searchParams.get('explain') === '1' }));
}

/**
 * The policy as an HTTP service (node:http): `POST /act` with
 * `{ position, rules? }` answers `{ action, pit, probabilities, value, legal }`
 * (`POST /act?explain=1` adds the `observation` the network was given);
 * `GET /health` answers `{ status: 'ok', policy }`. Every error is JSON
 * `{ error }` with a 4xx status naming what is wrong (503 when the service is
 * busy or a search passes its time cap; 500 only for bugs). The connection
 * limits are createLimitedServer's; a search runs where the service's search
 * does (the `serve` command's on a thread of its own), so this event loop
 * stays free for `/health` and for stopping.
 */
export function createPolicyServer(
  service: PolicyService,
  options: PolicyServerOptions = {},
): Server {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return createLimitedServer(
    options,
    (res, status, message, headers) => send(res, status, { error: message }, headers),
    (req, res, working) => {
      handle(service, limit, req, res, working).catch((error: unknown) => {
        if (error instanceof RequestError) {
          // After a 413 the rest of the body is not read: close the connection.
          const headers: Record<string, string> =
            error.status === 413 ? { ...error.headers, Connection: 'close' } : { ...error.headers };
          send(res, error.status, { error: error.message }, headers);
          if (error.status === 413) req.resume();
          return;
        }
        send(res, 500, { error: `internal error: ${(error as Error).message}` });
      });
    },
  );
}

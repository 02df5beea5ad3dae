import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { RequestError } from './act-request.ts';
import type { PolicyService } from './policy-service.ts';

/** Request bodies larger than this get a 413: a position is well under 200 bytes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;
/** Seconds a client has to send a request's headers, and the whole request. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
/** Connections open at once; more are closed as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 64;

export interface PolicyServerOptions {
  readonly maxBodyBytes?: number;
  /** Seconds to receive a whole request, headers included (default 10); then 408 and close. */
  readonly requestTimeoutSeconds?: number;
  /** Connections open at once (default 64); a connection over the cap is closed at once. */
  readonly maxConnections?: number;
}

const ROUTES: Record<string, string> = { '/act': 'POST', '/health': 'GET' };

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
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
  send(res, 200, service.act(body, { explain: url.searchParams.get('explain') === '1' }));
}

/**
 * The policy as an HTTP service (node:http): `POST /act` with
 * `{ position, rules? }` answers `{ action, pit, probabilities, value, legal }`
 * (`POST /act?explain=1` adds the `observation` the network was given);
 * `GET /health` answers `{ status: 'ok', policy }`. Every error is JSON
 * `{ error }` with a 4xx status naming what is wrong (5xx only for bugs).
 */
export function createPolicyServer(
  service: PolicyService,
  options: PolicyServerOptions = {},
): Server {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = 1000 * (options.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!(timeoutMs > 0)) {
    throw new RangeError(`request timeout must be positive, got ${timeoutMs / 1000} s`);
  }
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new RangeError(`max connections must be a positive integer, got ${maxConnections}`);
  }
  // Node's defaults let a stalled request hold a connection for 5 minutes, checked every 30 s.
  const server = createServer(
    {
      headersTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))),
    },
    (req, res) => {
      handle(service, limit, req, res).catch((error: unknown) => {
        if (error instanceof RequestError) {
          // After a 413 the rest of the body is not read: close the connection.
          const headers: Record<string, string> =
            error.status === 413 ? { Connection: 'close' } : {};
          send(res, error.status, { error: error.message }, headers);
          if (error.status === 413) req.resume();
          return;
        }
        send(res, 500, { error: `internal error: ${(error as Error).message}` });
      });
    },
  );
  server.maxConnections = maxConnections;
  return server;
}

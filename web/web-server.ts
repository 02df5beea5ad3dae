import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConnectionLimits, createLimitedServer } from '../serve/limited-server.ts';

/**
 * Where `npm run build` puts the built page: beside the compiled server
 * (dist/web/page), so that the installed package serves it without esbuild or
 * the page's sources, neither of which it ships.
 */
export const PREBUILT_PAGE = fileURLToPath(new URL('./page/', import.meta.url));

/**
 * The prebuilt page, or null where there is none: run from the sources (a
 * clone, through tsx), the page is built from them instead, so it is never stale.
 */
export function prebuiltPage(): string | null {
  return existsSync(join(PREBUILT_PAGE, 'index.html')) ? PREBUILT_PAGE : null;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

export interface WebServerOptions extends ConnectionLimits {
  /** The built page: PREBUILT_PAGE, or web/dist built from the sources. */
  readonly root: string;
  /** The ayoayo-policy file served as /policy.json, as JSON text; null: none (404). */
  readonly policyJson: string | null;
}

const TEXT = 'text/plain; charset=utf-8';

function reply(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  head: boolean,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(head ? undefined : body);
}

/**
 * Serves the built page and the chosen policy: static files from `root` (GET
 * and HEAD only, nothing outside `root`) and `/policy.json`. All play happens
 * in the page; the server only hands out files, under the service's
 * connection limits (createLimitedServer: a whole request within the request
 * timeout, at most so many connections at once, slow ones giving way).
 */
export function createWebServer(options: WebServerOptions): Server {
  const refuse = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Readonly<Record<string, string>>,
  ) => reply(res, status, TEXT, `${message}\n`, false, headers);
  return createLimitedServer(options, refuse, (req, res, working) => {
    working();
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.setHeader('Allow', 'GET, HEAD');
      reply(res, 405, TEXT, 'GET or HEAD only\n', false);
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      reply(res, 400, TEXT, 'bad path\n', head);
      return;
    }
    if (path === '/policy.json') {
      if (options.policyJson === null) {
        reply(res, 404, TEXT, 'no policy is served\n', head);
      } else {
        reply(res, 200, CONTENT_TYPES['.json'] as string, options.policyJson, head);
      }
      return;
    }
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^[/\\]+/, '');
    const file = join(options.root, relative);
    if (relative.startsWith('..') || !file.startsWith(options.root.replace(/[/\\]*$/, sep))) {
      reply(res, 404, TEXT, 'not found\n', head);
      return;
    }
    readFile(file).then(
      (data) => {
        const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
        reply(res, 200, type, data, head);
      },
      () => reply(res, 404, TEXT, 'not found\n', head),
    );
  });
}

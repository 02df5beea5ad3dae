import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { shippedBookPath } from '../solve/book/cache/book-cache.ts';

/**
 * The page's sources: web/index.html, web/style.css, the entry web/src/main.mts
 * and the solver's Web Worker web/src/solver-worker.mts (its own bundle, loaded
 * by the page beside app.js).
 */
export const WEB_ROOT = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_WEB_OUT = join(WEB_ROOT, 'dist');
const STATIC_FILES = ['index.html', 'style.css'];
/** The opening book's name beside the page (web/src/page-solving.ts fetches it). */
const PAGE_BOOK = 'book.bin';

export interface WebBuildOptions {
  /** Where the page's sources are (default: beside this file, the repository's web/). */
  readonly sources?: string;
  /** Writes app.js.map (default true); the package ships none, its sources not being in it. */
  readonly sourcemap?: boolean;
}

export interface WebBuild {
  readonly outDir: string;
  /** Files written, relative to outDir. */
  readonly files: readonly string[];
  /** Size of the page's bundle (app.js) in bytes. */
  readonly bundleBytes: number;
  /** Size of the solver worker's bundle (solver-worker.js) in bytes. */
  readonly workerBytes: number;
}

/**
 * Bundles the page with esbuild for the browser (the engine, the observation
 * encoder, the runner and minimax all run in the page) and copies the static
 * files beside it. A Node-only import anywhere in the page's graph fails the build.
 */
export async function buildWeb(
  outDir: string = DEFAULT_WEB_OUT,
  options: WebBuildOptions = {},
): Promise<WebBuild> {
  const sources = options.sources ?? WEB_ROOT;
  const sourcemap = options.sourcemap ?? true;
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: {
      app: join(sources, 'src', 'main.mts'),
      'solver-worker': join(sources, 'src', 'solver-worker.mts'),
    },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
  });
  for (const file of STATIC_FILES) copyFileSync(join(sources, file), join(outDir, file));
  // The default rules' opening book, which the solver worker fetches for the
  // perfect opponent and reviews (465 KB; the page works on without it).
  copyFileSync(shippedBookPath(), join(outDir, PAGE_BOOK));
  const bytes = (name: string): number =>
    Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`/${name}`))?.[1]
      .bytes ?? 0;
  const bundles = ['app.js', 'solver-worker.js'];
  return {
    outDir,
    files: [
      ...STATIC_FILES,
      PAGE_BOOK,
      ...bundles,
      ...(sourcemap ? bundles.map((b) => `${b}.map`) : []),
    ],
    bundleBytes: bytes('app.js'),
    workerBytes: bytes('solver-worker.js'),
  };
}

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's sources: web/index.html, web/style.css and the entry web/src/main.mts. */
export const WEB_ROOT = fileURLToPath(new URL('.', import.meta.url));
export const DEFAULT_WEB_OUT = join(WEB_ROOT, 'dist');
const STATIC_FILES = ['index.html', 'style.css'];

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
  /** Size of the bundle in bytes. */
  readonly bundleBytes: number;
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
    entryPoints: [join(sources, 'src', 'main.mts')],
    outfile: join(outDir, 'app.js'),
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
  const bundle = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith('app.js'));
  return {
    outDir,
    files: [...STATIC_FILES, 'app.js', ...(sourcemap ? ['app.js.map'] : [])],
    bundleBytes: bundle?.[1].bytes ?? 0,
  };
}

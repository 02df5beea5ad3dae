// `npm run build` (also run by `npm ci`/`npm install` through `prepare`, and by
// `npm pack`): compiles the package into dist/ with tsc, then puts beside it
// what the compiled code reads at run time: the pretrained policy, the accuracy
// sets and the browser page of `ayoayo web`. Plain JavaScript so that it runs before
// anything is compiled.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const inRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

rmSync(inRoot('dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
// The fingerprint of the sources that play self-play shards, which the package
// does not ship: part of the version the queue's jobs and workers compare.
const { fingerprintSources, FINGERPRINT_FILE } = await import(
  pathToFileURL(inRoot('dist/queue/code-fingerprint.js')).href
);
writeFileSync(
  inRoot(`dist/${FINGERPRINT_FILE}`),
  `${JSON.stringify({ sources: fingerprintSources(root) })}\n`,
);
// The pretrained policy (default of `ayoayo serve` and `ayoayo web`).
cpSync(inRoot('models/pretrained'), inRoot('dist/models/pretrained'), { recursive: true });
// The accuracy sets (default of `ayoayo accuracy` and of the trainer's accuracy evaluation).
cpSync(inRoot('eval/accuracy/sets'), inRoot('dist/eval/accuracy/sets'), {
  recursive: true,
  filter: (path) => !path.endsWith('.partial'),
});
// The default rules' opening book (the perfect player's and `ayoayo solve`'s).
cpSync(inRoot('solve/book/shipped'), inRoot('dist/solve/book/shipped'), {
  recursive: true,
  filter: (path) => !path.endsWith('.leaves') && !path.includes('.lock'),
});
// The page, bundled from web/ with esbuild (a development dependency) where the
// compiled web server looks for it; the package ships neither web/src nor esbuild.
const { buildWeb } = await import(pathToFileURL(inRoot('dist/web/build.js')).href);
const { PREBUILT_PAGE } = await import(pathToFileURL(inRoot('dist/web/web-server.js')).href);
await buildWeb(PREBUILT_PAGE, { sources: inRoot('web'), sourcemap: false });

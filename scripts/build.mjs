// `npm run build` (also run by `npm ci`/`npm install` through `prepare`, and by
// `npm pack`): compiles the package into dist/ with tsc, then puts beside it
// what the compiled code reads at run time: the pretrained policy, the accuracy
// sets and the browser page of `ayoayo web`. Plain JavaScript so that it runs before
// anything is compiled.
//
// `--no-check` compiles without type checking (the declarations are emitted all
// the same), `--no-declarations` without the .d.ts files, `--out DIR` elsewhere than
// dist/. The test suite's build of the command line (test/setup/cli-build.ts) uses all
// three, made at each run from the sources as they are; its package test
// (test/package/pack.test.ts) the first, since `npm test` type-checks before it.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const inRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

const { values: options } = parseArgs({
  options: {
    out: { type: 'string' },
    'no-check': { type: 'boolean', default: false },
    'no-declarations': { type: 'boolean', default: false },
  },
});
const out = resolve(root, options.out ?? 'dist');
const inOut = (path) => join(out, path);

rmSync(out, { recursive: true, force: true });
const quick = [
  ...(options['no-check'] ? ['--noCheck'] : []),
  ...(options['no-declarations'] ? ['--declaration', 'false'] : []),
];
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out, ...quick], {
  cwd: root,
  stdio: 'inherit',
});
// The fingerprint of the sources that play self-play shards, which the package
// does not ship: part of the version the queue's jobs and workers compare.
const { fingerprintSources, FINGERPRINT_FILE } = await import(
  pathToFileURL(inOut('queue/code-fingerprint.js')).href
);
writeFileSync(
  inOut(FINGERPRINT_FILE),
  `${JSON.stringify({ sources: fingerprintSources(root) })}\n`,
);
// The pretrained policy (default of `ayoayo serve` and `ayoayo web`).
cpSync(inRoot('models/pretrained'), inOut('models/pretrained'), { recursive: true });
// The accuracy sets (default of `ayoayo accuracy` and of the trainer's accuracy evaluation).
cpSync(inRoot('eval/accuracy/sets'), inOut('eval/accuracy/sets'), {
  recursive: true,
  filter: (path) => !path.endsWith('.partial'),
});
// The default rules' opening book (the perfect player's and `ayoayo solve`'s).
cpSync(inRoot('solve/book/shipped'), inOut('solve/book/shipped'), {
  recursive: true,
  filter: (path) => !path.endsWith('.leaves') && !path.includes('.lock'),
});
// The page, bundled from web/ with esbuild (a development dependency) where the
// compiled web server looks for it; the package ships neither web/src nor esbuild.
const { buildWeb } = await import(pathToFileURL(inOut('web/build.js')).href);
const { PREBUILT_PAGE } = await import(pathToFileURL(inOut('web/web-server.js')).href);
await buildWeb(PREBUILT_PAGE, { sources: inRoot('web'), sourcemap: false });

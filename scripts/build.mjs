// `npm run build` (also run by `npm ci`/`npm install` through `prepare`, and by
// `npm pack`): compiles the package into dist/ with tsc, then copies the files
// the compiled code reads at run time beside it. Plain JavaScript so that it
// runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const inRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

rmSync(inRoot('dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
// The pretrained policy (default of `ayoayo serve` and `ayoayo web`).
cpSync(inRoot('models/pretrained'), inRoot('dist/models/pretrained'), { recursive: true });

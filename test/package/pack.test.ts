/**
 * The package as its users get it: `npm pack`, installed from the tarball into
 * an empty project (offline, from the npm cache, with a lockfile derived from
 * this repository's), then used there the way the README's "Use it as a
 * library" section says.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ayoayoVersion } from '../../queue/version.ts';
import { startCommand } from '../serve/command-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const SUBPATHS = [
  'ayoayo',
  'ayoayo/gym',
  'ayoayo/agents',
  'ayoayo/eval',
  'ayoayo/models',
  'ayoayo/train',
  'ayoayo/solve',
];

interface LockEntry {
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly [field: string]: unknown;
}

/** The README's library example: the first `ts` block of its "Use it as a library" section. */
function readmeExample(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Use it as a library'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined)
    throw new Error('README.md has no ts example under "Use it as a library"');
  return match[1];
}

/**
 * package.json and package-lock.json of a project depending on the tarball
 * only: the lock lists this repository's runtime packages at the versions
 * already in the npm cache, so `npm ci --offline` needs no registry.
 */
function writeConsumerProject(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const own = lock.packages[''] as LockEntry;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { ayoayo: `file:${tarball}` } },
    'node_modules/ayoayo': {
      version: own.version,
      resolved: `file:${tarball}`,
      dependencies: own.dependencies,
      optionalDependencies: own.optionalDependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && entry.dev !== true && entry.link !== true) packages[path] = entry;
  }
  const manifest = {
    name: 'consumer',
    private: true,
    type: 'module',
    dependencies: { ayoayo: `file:${tarball}` },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2),
  );
}

function run(command: string, args: readonly string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  if (result.error) throw result.error;
  return result;
}

describe('the packed package, installed into an empty project', () => {
  let work: string;
  let app: string;
  let files: string[];

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'ayoayo-pack-'));
    // dist/ from the current sources, as `npm pack`'s `prepare` builds it but for the type
    // check, which `npm test` made before (a third of the build's CPU).
    execFileSync(process.execPath, ['scripts/build.mjs', '--no-check'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 240_000,
    });
    const packed = execFileSync(
      npm,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 240_000,
      },
    );
    const [info] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    if (info === undefined) throw new Error(`npm pack printed no package: ${packed}`);
    files = info.files.map((f) => f.path);
    app = join(work, 'app');
    mkdirSync(app);
    writeConsumerProject(app, join(work, info.filename));
    const flags = ['ci', '--ignore-scripts', '--no-audit', '--no-fund'];
    let install = run(npm, [...flags, '--offline'], app);
    // A cache without some tarball (another CI cache layout): let npm fetch what is missing.
    if (install.status !== 0 && /ENOTCACHED/.test(install.stderr)) {
      install = run(npm, [...flags, '--prefer-offline'], app);
    }
    if (install.status !== 0) throw new Error(`npm ci in the consumer failed:\n${install.stderr}`);
  }, 480_000);

  afterAll(() => {
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('ships the compiled code, its declarations, the bin and the docs; no sources, tests or runs', () => {
    for (const file of [
      'dist/env/index.js',
      'dist/env/index.d.ts',
      'dist/threads/worker.js',
      'bin/ayoayo.js',
    ]) {
      expect(files).toContain(file);
    }
    expect(files).toContain('docs/rules.md');
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/models/pretrained/policy.json');
    for (const file of ['index.html', 'style.css', 'app.js', 'solver-worker.js']) {
      expect(files).toContain(`dist/web/page/${file}`);
    }
    const unwanted = files.filter(
      (f) =>
        /^(test|runs|bench|web\/src)\//.test(f) ||
        (f.endsWith('.ts') && !f.endsWith('.d.ts')) ||
        f.endsWith('.map'),
    );
    expect(unwanted).toEqual([]);
    // The compiled package runs without tsx (a development dependency only).
    expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(false);
  });

  it('imports every entry point from plain Node ESM, policy agents included in worker threads', () => {
    const pretrained = join(app, 'node_modules/ayoayo/dist/models/pretrained/policy.json');
    const script = `
      ${SUBPATHS.map((path, i) => `import * as m${i} from '${path}';`).join('\n')}
      // m2 (ayoayo/agents) registered policy:PATH agents, in the workers too.
      const counts = [${SUBPATHS.map((_, i) => `Object.keys(m${i}).length`).join(', ')}];
      const t = await m3.runTournament({ specs: ['random', 'policy:${pretrained}'], games: 2, seed: 1, workers: 1 });
      // m6 (ayoayo/solve): player 0's only move leaves player 1 a win.
      const solved = m6.solve('0,0,0,0,1,0/1,0,0,1,1,1/20-23/0');
      console.log(JSON.stringify({ counts, start: m0.formatPosition(m0.initialPosition()), games: t.games.length, solved: solved.value }));
    `;
    const result = run(process.execPath, ['--input-type=module', '-e', script], app);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as {
      counts: number[];
      start: string;
      games: number;
      solved: string;
    };
    for (const count of out.counts) expect(count).toBeGreaterThan(3);
    expect(out.start).toBe('4,4,4,4,4,4/4,4,4,4,4,4/0-0/0');
    expect(out.games).toBe(2);
    expect(out.solved).toBe('loss');
  });

  it("type-checks the README's example against the shipped declarations, then runs it", () => {
    writeFileSync(join(app, 'example.ts'), readmeExample());
    // Fails the check if the declarations were loose (any): the expected error would be missing.
    const misuse =
      "import { AyoayoEnv } from 'ayoayo/gym';\n// @ts-expect-error: actions are numbers\nnew AyoayoEnv().step('north');\n";
    writeFileSync(join(app, 'misuse.ts'), misuse);
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        outDir: 'out',
        // A Node project has @types/node; borrow this repository's rather than installing it.
        typeRoots: [join(root, 'node_modules/@types')],
        types: ['node'],
      },
      files: ['example.ts', 'misuse.ts'],
    };
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
    const checked = run(process.execPath, [tsc, '-p', 'tsconfig.json'], app);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
    const result = run(process.execPath, ['out/example.js'], app);
    expect(result.stderr).toBe('');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('2,7,0,6,1,6/6,6,0,0,6,6/2-0/1 captured 2');
    expect(lines[1]).toMatch(/^episode over after \d+ plies: \{"scores":\[\d+,\d+\]/);
    expect(
      lines
        .slice(2)
        .map((line) => line.split(' ')[0])
        .sort(),
    ).toEqual(['greedy', 'minimax:2', 'random']);
  });

  it('runs the ayoayo command from the compiled code', () => {
    const bin = join(app, 'node_modules/.bin/ayoayo');
    const help = run(bin, ['--help'], app);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/ayoayo show/);
    // The version names the code's fingerprint, stamped by the build: the same as the sources'.
    const version = run(bin, ['--version'], app);
    expect(version.stdout.trim()).toBe(ayoayoVersion());
    expect(ayoayoVersion()).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    const show = run(bin, ['show'], app);
    expect(show.status).toBe(0);
    expect(show.stdout).toContain('Position: 4,4,4,4,4,4/4,4,4,4,4,4/0-0/0');
  });

  it('serves the prebuilt browser page with ayoayo web, without esbuild or the page sources', async () => {
    expect(existsSync(join(app, 'node_modules', 'esbuild'))).toBe(false);
    const web = await startCommand(['web', '--port', '0'], {
      bin: join(app, 'node_modules/.bin/ayoayo'),
      cwd: app,
    });
    try {
      const page = await fetch(`${web.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script type="module" src="app.js"></script>');
      const script = await fetch(`${web.url}/app.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toContain('text/javascript');
      expect((await script.text()).length).toBeGreaterThan(50_000);
      // The page's solver runs in a worker bundle of its own (docs/solver.md).
      const worker = await fetch(`${web.url}/solver-worker.js`);
      expect(worker.status).toBe(200);
      expect(worker.headers.get('content-type')).toContain('text/javascript');
      // The pretrained policy is the page's default opponent.
      expect((await fetch(`${web.url}/policy.json`)).status).toBe(200);
    } finally {
      const { code, stderr } = await web.stop();
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });

  it('bundles the engine and the environment for the browser, small', async () => {
    const entry = join(app, 'browser.js');
    writeFileSync(
      entry,
      "import { initialPosition, legalActions } from 'ayoayo';\nimport { AyoayoEnv } from 'ayoayo/gym';\n" +
        'console.log(legalActions(initialPosition()), new AyoayoEnv().reset({ seed: 1 }).observation);\n',
    );
    // platform 'browser' fails the build on any import of a Node built-in.
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: app,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0]?.contents.length ?? 0;
    expect(bytes).toBeGreaterThan(10_000);
    // The whole of zod (locales, JSON schema) would be ~450 KB; the engine and gym need far less.
    expect(bytes).toBeLessThan(150_000);
  });
});

/**
 * The import rules of the folders (docs/architecture.md): each folder may
 * import itself and the folders listed for it, nothing else. Imports are read
 * with TypeScript's own pre-processor (static, dynamic and type-only imports,
 * re-exports), plus `new URL('./x.ts', import.meta.url)` strings, the way a
 * module can be loaded without an import the type checker sees.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LAYERS = [
  'env',
  'files',
  'display',
  'threads',
  'solve',
  'models',
  'agents',
  'eval',
  'train',
  'serve',
  'queue',
  'web',
  'cli',
  'bench',
] as const;
export type Layer = (typeof LAYERS)[number];

/** The layers listed before `layer`: those it may import when it may import everything below. */
const below = (layer: Layer): Layer[] => LAYERS.slice(0, LAYERS.indexOf(layer));

/** What each folder may import besides itself. env/gym is inside env; the engine may not import it. */
export const ALLOWED: Record<Layer, readonly Layer[]> = {
  env: [],
  files: [],
  display: ['files'],
  threads: [],
  solve: ['env', 'files', 'display', 'threads'],
  models: ['env', 'files'],
  agents: below('agents'),
  eval: below('eval'),
  train: below('train'),
  serve: below('train'),
  queue: below('serve'),
  web: [...below('train'), 'serve'],
  cli: below('cli'),
  bench: below('cli'),
};

/**
 * Files whose code must run in a browser too: no Node built-in, and nothing
 * from the Node-only folders. solve/endgame/cache/ and solve/book/cache/ are
 * the solver's Node-side parts (the endgame tables and the opening books on
 * disk), which the browser's entry (solve/index.ts) does not export. The
 * page makes its opponents with the grammar and registry of agent kinds and
 * the kinds that run anywhere.
 */
const BROWSER_SAFE = [
  /^env\//,
  /^solve\/(?!endgame\/cache\/|book\/cache\/)/,
  /^web\/src\//,
  /^agents\/(agent-kinds|browser-kinds|kind-registry|spec-grammar|spec-options|solver-backed)\.ts$/,
  /^agents\/network\/(grammar|az-agent|policy-agent)\.ts$/,
];
const NODE_ONLY: readonly Layer[] = ['files', 'display', 'threads'];

const NODE_BUILTINS = new Set(builtinModules);

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  readonly path: string;
  readonly text: string;
}

/** The specifiers a file imports, in order. */
export function importsOf(file: SourceFile): string[] {
  const info = ts.preProcessFile(file.text, true, true);
  const urls = [
    ...file.text.matchAll(/new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g),
  ];
  return [...info.importedFiles.map((f) => f.fileName), ...urls.map((m) => m[1] as string)];
}

function layerOf(path: string): Layer | null {
  const top = path.split('/')[0] as Layer;
  return LAYERS.includes(top) ? top : null;
}

/** Every import that crosses the rules, as `file -> specifier: why`. */
export function layerViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const from = layerOf(file.path);
    if (from === null) continue;
    for (const specifier of importsOf(file)) {
      const bare = specifier.replace(/^node:/, '').split('/')[0] as string;
      if (specifier.startsWith('node:') || NODE_BUILTINS.has(bare)) {
        if (BROWSER_SAFE.some((r) => r.test(file.path))) {
          problems.push(`${file.path} -> ${specifier}: this folder must import nothing from Node`);
        }
        continue;
      }
      if (!specifier.startsWith('.')) continue; // a package
      const target = normalize(join(dirname(file.path), specifier)).replaceAll('\\', '/');
      const to = layerOf(target);
      if (to !== null && NODE_ONLY.includes(to) && BROWSER_SAFE.some((r) => r.test(file.path))) {
        problems.push(
          `${file.path} -> ${specifier}: this file must run in a browser; ${to} is Node's`,
        );
      } else if (to === null) {
        problems.push(`${file.path} -> ${specifier}: outside the layered folders`);
      } else if (to !== from && !ALLOWED[from].includes(to)) {
        problems.push(`${file.path} -> ${specifier}: ${from} may not import ${to}`);
      } else if (
        from === 'env' &&
        !file.path.startsWith('env/gym/') &&
        target.startsWith('env/gym/')
      ) {
        problems.push(`${file.path} -> ${specifier}: the engine may not import env/gym`);
      }
    }
  }
  return problems;
}

/**
 * The import cycles among `files` (relative imports of any kind, dynamic ones
 * included), each as the list of its files; empty when the imports form a tree.
 * Tarjan's strongly connected components.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => normalize(join(dirname(file.path), specifier)).replaceAll('\\', '/'));
    graph.set(file.path, targets);
  }
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, order.size);
    low.set(v, order.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, order.get(w) as number));
      }
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!order.has(v)) visit(v);
  return cycles;
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(ts|mts|js|mjs)$/;

/** Every source file under `dir` (a folder of the repository), compiled output aside. */
export function sourcesUnder(dir: string): SourceFile[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && SOURCE.test(entry.name) && !entry.parentPath.includes('dist'),
    )
    .map((entry) => {
      const path = relative(root, join(entry.parentPath, entry.name)).replaceAll('\\', '/');
      return { path, text: readFileSync(join(root, path), 'utf8') };
    });
}

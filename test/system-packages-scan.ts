/**
 * Finds the test code that uses a system package (test/system-packages.ts)
 * outside the one guard, `describeWithSystemPackage`: a string naming one of
 * its programs or scripts, or a call of a function that starts it, anywhere
 * but in a hook or test of a suite guarded by that package. A top-level helper
 * that uses a package counts as one of its starters. A top-level hook may not
 * touch what a guarded suite sets up: it runs where that suite is skipped.
 */
import ts from 'typescript';
import type { SourceFile } from './architecture/layers.ts';
import { SYSTEM_PACKAGES, type SystemPackage } from './system-packages.ts';

const GUARD = 'describeWithSystemPackage';
const HOOKS = new Set(['beforeAll', 'afterAll', 'beforeEach', 'afterEach']);

/** What names a package in a file: the string's word or the function's name, and the packages. */
interface Signals {
  readonly programs: Map<string, Set<string>>;
  readonly starters: Map<string, Set<string>>;
}

function add(map: Map<string, Set<string>>, key: string, pkg: string): void {
  const set = map.get(key) ?? new Set<string>();
  set.add(pkg);
  map.set(key, set);
}

function signalsOf(packages: Readonly<Record<string, SystemPackage>>): Signals {
  const signals: Signals = { programs: new Map(), starters: new Map() };
  for (const [name, pkg] of Object.entries(packages)) {
    for (const program of pkg.programs) add(signals.programs, program, name);
    for (const starter of pkg.starters) add(signals.starters, starter, name);
  }
  return signals;
}

interface Use {
  readonly node: ts.Node;
  /** A string naming a program or script (inert until run), or a call of a starter. */
  readonly kind: 'program' | 'starter';
  readonly what: string;
  readonly packages: ReadonlySet<string>;
}

function stringText(node: ts.Node): string | null {
  if (
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateHead(node) ||
    ts.isTemplateMiddle(node) ||
    ts.isTemplateTail(node)
  ) {
    return node.text;
  }
  return null;
}

/**
 * A string handed to a call (`spawn('python3', ...)`, `new URL('...client.py', ...)`, a template
 * built into one): a program run or a script's path, not a value a test only compares.
 */
function isArgument(node: ts.Node): boolean {
  let value: ts.Node = node;
  if (ts.isTemplateHead(node)) value = node.parent;
  else if (ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) value = node.parent.parent;
  const holder = value.parent;
  return (
    holder !== undefined &&
    (ts.isCallExpression(holder) || ts.isNewExpression(holder)) &&
    (holder.arguments ?? []).some((arg) => arg === value)
  );
}

function programNamed(text: string, signals: Signals): string | null {
  const first = text.trim().split(/\s+/)[0] ?? '';
  for (const program of signals.programs.keys()) {
    if (first === program || first.endsWith(`/${program}`)) return program;
  }
  return null;
}

/** An identifier that names a declaration (the helper itself, a parameter) rather than using it. */
function isDeclaredName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isFunctionDeclaration(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isPropertyAccessExpression(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isBindingElement(parent)) &&
    parent.name === node
  );
}

function usesIn(root: ts.Node, signals: Signals): Use[] {
  const uses: Use[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) return;
    const text = isArgument(node) ? stringText(node) : null;
    const program = text === null ? null : programNamed(text, signals);
    if (program !== null) {
      uses.push({
        node,
        kind: 'program',
        what: program,
        packages: signals.programs.get(program) as Set<string>,
      });
    }
    if (ts.isIdentifier(node) && signals.starters.has(node.text) && !isDeclaredName(node)) {
      uses.push({
        node,
        kind: 'starter',
        what: node.text,
        packages: signals.starters.get(node.text) as Set<string>,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(root);
  return uses;
}

/**
 * A top-level definition: a function (`function f` or `const f = () => ...`), whose uses of a
 * package run when it is called, or a constant, whose strings naming a program or a script
 * (`const CLIENT = new URL('...client.py', ...)`) stand for them where it is used.
 */
interface Definition {
  readonly name: string;
  readonly body: ts.Node;
  readonly constant: boolean;
}

function definitionOf(statement: ts.Statement): Definition | null {
  if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) {
    return { name: statement.name.text, body: statement, constant: false };
  }
  if (ts.isVariableStatement(statement)) {
    const [declaration, ...rest] = statement.declarationList.declarations;
    const init = declaration?.initializer;
    if (
      rest.length === 0 &&
      declaration !== undefined &&
      ts.isIdentifier(declaration.name) &&
      init !== undefined
    ) {
      const constant = !ts.isArrowFunction(init) && !ts.isFunctionExpression(init);
      return { name: declaration.name.text, body: init, constant };
    }
  }
  return null;
}

/** The uses a definition passes on to its name; those are not uses where it is defined. */
function passedOn(definition: Definition, uses: readonly Use[]): Use[] {
  return uses.filter(
    (use) =>
      use.node.pos >= definition.body.pos &&
      use.node.end <= definition.body.end &&
      (!definition.constant || use.kind === 'program'),
  );
}

/** A suite's body: the function given to `describe...(...)` or to the guard, run as tests are collected. */
function isSuiteBody(fn: ts.Node): boolean {
  const call = fn.parent;
  if (call === undefined || !ts.isCallExpression(call)) return false;
  let callee: ts.Expression = call.expression;
  while (ts.isCallExpression(callee) || ts.isPropertyAccessExpression(callee)) {
    callee = callee.expression;
  }
  return ts.isIdentifier(callee) && (callee.text === 'describe' || callee.text === GUARD);
}

/** True when `node` runs as the tests are collected: no function but suite bodies up to `body`. */
function runsAtCollection(node: ts.Node, body: ts.Node): boolean {
  for (let at = node.parent; at !== undefined && at !== body.parent; at = at.parent) {
    if (ts.isFunctionLike(at) && !isSuiteBody(at)) return false;
  }
  return true;
}

/** The guard calls whose body holds `node`, with the package each names. */
function enclosingGuards(node: ts.Node): { pkg: string; body: ts.Node }[] {
  const guards: { pkg: string; body: ts.Node }[] = [];
  for (let at = node.parent; at !== undefined; at = at.parent) {
    if (!isGuardCall(at)) continue;
    const [pkg, , body] = at.arguments;
    if (pkg !== undefined && ts.isIdentifier(pkg) && body !== undefined) {
      guards.push({ pkg: pkg.text, body });
    }
  }
  return guards;
}

function isGuardCall(node: ts.Node): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === GUARD &&
    node.arguments.length >= 3
  );
}

function guardBodies(source: ts.SourceFile): ts.Node[] {
  const bodies: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (isGuardCall(node) && node.arguments[2] !== undefined) bodies.push(node.arguments[2]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return bodies;
}

/** The names a guarded suite assigns (`redis = await startTestRedis()`): its set-up state. */
function namesSetUpIn(bodies: readonly ts.Node[]): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(node.left)
    ) {
      names.add(node.left.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const body of bodies) visit(body);
  return names;
}

function namesIn(node: ts.Node): string[] {
  const names = new Set<string>();
  const visit = (at: ts.Node): void => {
    if (ts.isIdentifier(at)) names.add(at.text);
    ts.forEachChild(at, visit);
  };
  visit(node);
  return [...names];
}

/** The hook a top-level statement registers (`beforeAll(...)`), or null. */
function topLevelHook(statement: ts.Statement): string | null {
  if (
    ts.isExpressionStatement(statement) &&
    ts.isCallExpression(statement.expression) &&
    ts.isIdentifier(statement.expression.expression) &&
    HOOKS.has(statement.expression.expression.text)
  ) {
    return statement.expression.expression.text;
  }
  return null;
}

/**
 * Every use of a system package in `file` outside its guard, and every
 * top-level hook that touches what a guarded suite sets up, as `path:line: why`.
 */
export function unguardedUses(
  file: SourceFile,
  packages: Readonly<Record<string, SystemPackage>> = SYSTEM_PACKAGES,
): string[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const signals = signalsOf(packages);
  const definitions = source.statements
    .map(definitionOf)
    .filter((definition) => definition !== null);
  for (let grew = true; grew; ) {
    grew = false;
    for (const definition of definitions) {
      for (const use of passedOn(definition, usesIn(definition.body, signals))) {
        for (const pkg of use.packages) {
          if (!signals.starters.get(definition.name)?.has(pkg)) {
            add(signals.starters, definition.name, pkg);
            grew = true;
          }
        }
      }
    }
  }
  const where = (node: ts.Node) =>
    `${file.path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const problems: string[] = [];
  const all = usesIn(source, signals);
  const defined = new Set(definitions.flatMap((definition) => passedOn(definition, all)));
  const uses = all.filter((use) => !defined.has(use));
  for (const use of uses) {
    const names = [...use.packages];
    const guard = enclosingGuards(use.node).find((g) => use.packages.has(g.pkg));
    if (guard === undefined) {
      problems.push(
        `${where(use.node)}: ${use.what} needs ${names.map((n) => packages[n]?.apt).join(' or ')}: ` +
          `use it in a hook or test of ${GUARD}(${names.join(' or ')}, ...)`,
      );
    } else if (runsAtCollection(use.node, guard.body)) {
      problems.push(
        `${where(use.node)}: ${use.what} runs when the tests are collected, even where ` +
          `${guard.pkg} is missing: use it in a hook or test of the suite`,
      );
    }
  }
  const setUp = namesSetUpIn(guardBodies(source));
  for (const statement of source.statements) {
    const hook = topLevelHook(statement);
    const touched = hook === null ? [] : namesIn(statement).filter((name) => setUp.has(name));
    if (hook !== null && touched.length > 0) {
      problems.push(
        `${where(statement)}: a top-level ${hook} uses ${touched.join(', ')}, set up by a ` +
          `${GUARD} suite, and runs even where that suite is skipped: put it in the suite`,
      );
    }
  }
  return problems;
}

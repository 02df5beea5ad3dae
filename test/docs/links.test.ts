/**
 * Every relative link in the repository's Markdown (README.md, docs/, the
 * folders' READMEs) points at a file that exists, and every `#anchor` at a
 * heading of the file it names, so a clone of the repository alone reads whole.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Build output (the package's, and the test run's build of the command line), runs, installed
// packages: not part of the repository's text.
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'dist-cli',
  'runs',
  'exported',
  'coverage',
  '.git',
]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Link targets of `[text](target)` and `![alt](target)`, titles dropped. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] as string,
  );
}

/** GitHub's anchors for a file's headings (lower case, punctuation dropped, spaces to hyphens). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with each relative link of one Markdown file (empty: nothing). */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
    const [path = '', anchor] = target.split('#');
    const linked = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    if (!existsSync(linked)) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === '' || !linked.endsWith('.md')) continue;
    if (statSync(linked).isFile() && !headingAnchors(readFileSync(linked, 'utf8')).has(anchor)) {
      problems.push(`${target}: no heading #${anchor} in ${relative(root, linked)}`);
    }
  }
  return problems;
}

describe('links in the Markdown files', () => {
  const files = markdownFiles(root);

  it('finds the README and the rules among them', () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toContain('README.md');
    expect(names).toContain(join('docs', 'rules.md'));
  });

  it.each(files.map((file) => [relative(root, file), file]))(
    '%s links only to files and headings that exist',
    (_name, file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );

  it('reads links and anchors as GitHub does', () => {
    const text =
      '# The HTTP service\n## Options\n## Options\n[a](docs/x.md#y) ![b](c.png "title")\n' +
      '`[not](a-link.md)`\n```\n[nor](this.md)\n```\n';
    expect(linkTargets(text)).toEqual(['docs/x.md#y', 'c.png']);
    expect([...headingAnchors(text)]).toEqual(['the-http-service', 'options', 'options-1']);
  });
});

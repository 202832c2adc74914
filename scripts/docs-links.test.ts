import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, markdownLinks } from './docsLinks';

/**
 * Every link in README.md and docs/*.md resolves: a relative file exists inside the repository and an
 * `#anchor` names a heading of the page it points at (GitHub's anchor rule). External links are not
 * followed (the machines that run the tests have no network).
 */
const root = resolve(__dirname, '..');

function pages(): string[] {
  const docs = join(root, 'docs');
  const found = readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docs, name));
  return [join(root, 'README.md'), ...found];
}

describe('documentation links', () => {
  it('finds the pages and their links', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(markdownLinks(readme).map((link) => link.target)).toContain('docs/tuner.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  for (const page of pages()) {
    it(`every link in ${page.slice(root.length + 1)} resolves`, () => {
      const text = readFileSync(page, 'utf8');
      const broken: string[] = [];
      for (const link of markdownLinks(text)) {
        if (/^[a-z]+:/i.test(link.target)) continue;
        const [file, anchor] = link.target.split('#', 2) as [string, string | undefined];
        const target = file === '' ? page : resolve(dirname(page), decodeURIComponent(file));
        if (!target.startsWith(root + '/') && target !== root) {
          broken.push(`${link.line}: ${link.target} (outside the repository)`);
          continue;
        }
        if (!existsSync(target)) {
          broken.push(`${link.line}: ${link.target} (no such file)`);
          continue;
        }
        if (anchor !== undefined) {
          if (statSync(target).isDirectory() || !target.endsWith('.md')) {
            broken.push(`${link.line}: ${link.target} (anchor on a file that is not a page)`);
          } else if (!headingAnchors(readFileSync(target, 'utf8')).has(anchor)) {
            broken.push(`${link.line}: ${link.target} (no heading with that anchor)`);
          }
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

/**
 * docs/README.md indexes every page of docs/ in reading order: a page added without a place in the
 * index, or an index entry whose page is gone, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';

const DOCS = path.resolve(__dirname, '../../../docs');

it('links every page of docs/ once, and only pages that exist', () => {
  const index = fs.readFileSync(path.join(DOCS, 'README.md'), 'utf8');
  const linked = [...index.matchAll(/\]\(([a-z-]+\.md)\)/g)].map((m) => m[1]!);
  const pages = fs
    .readdirSync(DOCS)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .sort();
  expect([...linked].sort()).toEqual(pages);
  // Numbered in reading order, without gaps.
  const numbers = [...index.matchAll(/^ ?(\d+)\. \[/gm)].map((m) => Number(m[1]));
  expect(numbers).toEqual(pages.map((_, i) => i + 1));
});

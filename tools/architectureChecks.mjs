#!/usr/bin/env node
// The architecture's checks that lint and types cannot express (docs/architecture.md), read-only;
// test/unit/architecture.test.ts runs them with --strict.
//
//   node tools/architectureChecks.mjs [repoRoot] [--strict] [--json]
//
// repoRoot defaults to the current directory. Reports, for src/ (and functions/, tools/):
//   1. files whose opening comment block is longer than 15 lines
//   2. comment lines longer than 100 characters
//   3. folders holding more than 15 modules directly (*.ts, not *.d.ts)
//   4. plain `new Error(` in src/ outside catalogue files (*Errors.ts, errors.ts)
//   5. the share of comment lines (per top folder and per src capability)
//   6. (information) src folders with neither an index.ts surface nor a README.md, entries that
//      export nothing, and entries whose opening comment is missing or over the limit
//   7. (information) hubs: imports of directory/storedEntities, `services()`
//      calls in functions/ outside functions/shared, modules `RETRY` is imported from
// --strict: exit 1 when any of checks 1-4 finds something (check 3 exempts functions/, whose
// root holds one entry file per function group by package.json `main`; check 4 counts src/ only).
// Comments are found with the TypeScript parser of the repository (node_modules/typescript), so
// `//` inside strings, templates and regular expressions is never taken for a comment.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const strict = args.includes('--strict');
const asJson = args.includes('--json');
const root = path.resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const ts = createRequire(path.join(root, 'package.json'))('typescript');

const TOPS = ['src', 'functions', 'tools'];
const MAX_OPENING = 15;
const MAX_WIDTH = 100;
const MAX_MODULES = 15;
const isModule = (name) => name.endsWith('.ts') && !name.endsWith('.d.ts');
const isCatalogue = (file) => /(^|\/)([A-Za-z]*Errors|errors)\.ts$/.test(file);

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (isModule(entry.name)) out.push(full);
  }
  return out;
}

/** Every comment range of a file, found through the AST (leading and trailing trivia). */
function commentRanges(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map();
  const add = (ranges) => ranges?.forEach((r) => seen.set(r.pos, r));
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    // Tokens (keywords, punctuation) are not children: scan their trivia through getChildren.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  add(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

function analyse(file) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const lineOf = (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const ranges = commentRanges(text, file);
  // A line is a comment line when everything on it that is not blank lies inside comments.
  const covered = new Uint8Array(text.length);
  for (const r of ranges) covered.fill(1, r.pos, r.end);
  const commentLines = new Set();
  const touched = new Set();
  for (const r of ranges) for (let l = lineOf(r.pos); l <= lineOf(r.end - 1); l++) touched.add(l);
  for (const l of touched) {
    const start = starts[l];
    const end = start + lines[l].length;
    let codeFound = false;
    for (let p = start; p < end; p++) {
      if (!covered[p] && !/\s/.test(text[p])) {
        codeFound = true;
        break;
      }
    }
    if (!codeFound) commentLines.add(l);
  }
  // The opening block: the comments before the first statement, from the top of the file.
  let opening = 0;
  const lead = ts.getLeadingCommentRanges(text, text.startsWith('#!') ? text.indexOf('\n') + 1 : 0);
  if (lead?.length) {
    const firstLine = lineOf(lead[0].pos);
    // Only comments that touch each other (blank lines aside) form the block.
    let last = lineOf(lead[0].end - 1);
    for (const r of lead.slice(1)) {
      const from = lineOf(r.pos);
      const gap = lines.slice(last + 1, from).every((l) => l.trim() === '');
      if (!gap) break;
      last = lineOf(r.end - 1);
    }
    opening = lines.slice(firstLine, last + 1).filter((l) => l.trim() !== '').length;
  }
  const wide = [...commentLines]
    .filter((l) => lines[l].length > MAX_WIDTH)
    .map((l) => ({ line: l + 1, width: lines[l].length }));
  // `new Error(` in code only (not in comments or strings).
  const plainErrors = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const findNew = (node) => {
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Error'
    ) {
      plainErrors.push(lineOf(node.getStart(source)) + 1);
    }
    ts.forEachChild(node, findNew);
  };
  findNew(source);
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  return { lines: lines.length, nonBlank, comment: commentLines.size, opening, wide, plainErrors };
}

const report = {
  root,
  opening: [],
  wide: [],
  folders: [],
  plainErrors: [],
  share: {},
  entries: [],
};
const files = TOPS.flatMap((top) => walk(path.join(root, top)));
const stats = new Map();
for (const file of files)
  stats.set(path.relative(root, file).split(path.sep).join('/'), analyse(file));

for (const [file, s] of stats) {
  if (s.opening > MAX_OPENING) report.opening.push({ file, lines: s.opening });
  for (const w of s.wide) report.wide.push({ file, ...w });
  if (s.plainErrors.length && !isCatalogue(file)) {
    report.plainErrors.push({ file, lines: s.plainErrors });
  }
}
report.opening.sort((a, b) => b.lines - a.lines);

// Folders and their direct modules.
const folders = new Map();
for (const file of stats.keys()) {
  const dir = path.posix.dirname(file);
  folders.set(dir, [...(folders.get(dir) ?? []), path.posix.basename(file)]);
}
for (const [dir, names] of [...folders].sort()) {
  if (names.length > MAX_MODULES) report.folders.push({ folder: dir, modules: names.length });
  const entry = names.includes('index.ts') ? `${dir}/index.ts` : undefined;
  const readme = fs.existsSync(path.join(root, dir, 'README.md'));
  // A folder says what it is in an entry other folders import through, or in a README.md.
  const problem = !entry
    ? readme
      ? undefined
      : 'neither an index.ts surface nor a README.md'
    : /^export \{\};$/m.test(fs.readFileSync(path.join(root, entry), 'utf8'))
      ? 'index.ts exports nothing (describe the folder in README.md)'
      : stats.get(entry).opening === 0
        ? 'index.ts has no opening comment'
        : stats.get(entry).opening > MAX_OPENING
          ? `index.ts opening comment ${stats.get(entry).opening} lines`
          : undefined;
  if (problem && dir.startsWith('src/')) report.entries.push({ folder: dir, problem });
}
report.folders.sort((a, b) => b.modules - a.modules);

// Shares: per top folder, and per src capability (src/<name>, its sub-folders included).
const bucket = (file) => {
  const parts = file.split('/');
  return parts[0] === 'src' && parts.length > 2
    ? `src/${parts[1]}`
    : parts[0] === 'src'
      ? 'src (root files)'
      : parts[0];
};
const add = (key, s) => {
  const t = (report.share[key] ??= { lines: 0, nonBlank: 0, comment: 0 });
  t.lines += s.lines;
  t.nonBlank += s.nonBlank;
  t.comment += s.comment;
};
for (const [file, s] of stats) {
  add(file.split('/')[0], s);
  if (file.startsWith('src/')) add(bucket(file), s);
}

const srcErrors = report.plainErrors.filter((e) => e.file.startsWith('src/'));

// Hubs, by the import specifiers (relative) of each file.
const hubs = { storedEntities: [], servicesCalls: [], retryFrom: new Map() };
for (const file of stats.keys()) {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  for (const m of text.matchAll(/from\s+'([^']+)'/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    if (target === 'src/directory/storedEntities') hubs.storedEntities.push(file);
  }
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    if (/\bRETRY\b/.test(m[1])) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[2]));
      hubs.retryFrom.set(target, (hubs.retryFrom.get(target) ?? 0) + 1);
    }
  }
  if (file.startsWith('functions/') && !file.startsWith('functions/shared/')) {
    const n = [...text.matchAll(/\bservices\(\)/g)].length;
    if (n) hubs.servicesCalls.push(`${file} (${n})`);
  }
}
if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const pct = (a, b) => `${((100 * a) / Math.max(b, 1)).toFixed(1)}%`;
  const section = (title, rows) => {
    console.log(`\n## ${title}`);
    if (rows.length === 0) console.log('  (none)');
    rows.forEach((row) => console.log(`  ${row}`));
  };
  const byTop = (list) =>
    TOPS.map((t) => `${t}: ${list.filter((x) => x.file.startsWith(`${t}/`)).length}`).join(', ');
  console.log(`architecture checks of ${root} (${stats.size} modules in ${TOPS.join(', ')})`);
  section(
    `1. Opening comment over ${MAX_OPENING} lines: ${report.opening.length} files (${byTop(report.opening)})`,
    report.opening.map((o) => `${String(o.lines).padStart(3)}  ${o.file}`),
  );
  section(
    `2. Comment lines over ${MAX_WIDTH} characters: ${report.wide.length} (${byTop(report.wide)})`,
    report.wide.map((w) => `${w.file}:${w.line} (${w.width})`),
  );
  section(
    `3. Folders with more than ${MAX_MODULES} modules: ${report.folders.length}`,
    report.folders.map((f) => `${String(f.modules).padStart(3)}  ${f.folder}/`),
  );
  const count = (list) => list.reduce((n, e) => n + e.lines.length, 0);
  section(
    `4. Plain \`new Error(\` outside catalogues: src ${count(srcErrors)} in ${srcErrors.length} files` +
      ` (functions ${count(report.plainErrors.filter((e) => e.file.startsWith('functions/')))},` +
      ` tools ${count(report.plainErrors.filter((e) => e.file.startsWith('tools/')))}; only src/ is listed)`,
    srcErrors.map((e) => `${e.file}: ${e.lines.join(', ')}`),
  );
  section(
    '5. Share of comment lines (of all lines; of non-blank lines)',
    Object.entries(report.share).map(
      ([k, t]) =>
        `${k.padEnd(22)} ${pct(t.comment, t.lines).padStart(6)}  ${pct(t.comment, t.nonBlank).padStart(6)}   (${t.comment} / ${t.lines})`,
    ),
  );
  section(
    '6. (information) src folders whose entry is missing or unfit',
    report.entries.map((e) => `${e.folder}/: ${e.problem}`),
  );
}
if (!asJson) {
  console.log('\n## 7. (information) hubs');
  console.log(`  directory/storedEntities imported by ${new Set(hubs.storedEntities).size} files`);
  console.log(
    `  services() called in ${hubs.servicesCalls.length} files of functions/ outside functions/shared: ${hubs.servicesCalls.join(', ')}`,
  );
  console.log(
    `  RETRY imported from: ${[...hubs.retryFrom].map(([t, n]) => `${t} (${n})`).join(', ')}`,
  );
}
const failed =
  report.opening.length +
    report.wide.length +
    report.folders.filter((f) => f.folder !== 'functions').length +
    srcErrors.length >
  0;
if (strict && failed) process.exitCode = 1;

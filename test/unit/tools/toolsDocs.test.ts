/**
 * Every export of tools/ says what it is (a doc comment), as src/ does: the local host, the durable
 * runtime and the launchers are read by people who never wrote them. (Their size cap, 400 lines a
 * file, is ESLint's `max-lines` in eslint.config.mjs.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '../../..');

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `file:line` of each exported declaration without a doc comment (re-exports need none). */
function undocumentedExports(files: string[]): string[] {
  return files.flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    return source.statements
      .filter((statement) => {
        const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
        return modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      })
      .filter((statement) => ts.getJSDocCommentsAndTags(statement).length === 0)
      .map((statement) => {
        const { line } = source.getLineAndCharacterOfPosition(statement.getStart());
        return `${path.relative(root, file)}:${line + 1}`;
      });
  });
}

describe('tools/ doc comments', () => {
  it('finds an export without a doc comment (the check works)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-'));
    const file = path.join(dir, 'a.ts');
    fs.writeFileSync(
      file,
      "/** Documented. */\nexport const a = 1;\n// A line comment is no doc.\nexport const b = 2;\nexport { a as c } from './a';\n",
    );
    expect(undocumentedExports([file]).map((at) => at.split(':').pop())).toEqual(['4']);
    fs.rmSync(dir, { recursive: true });
  });

  it('documents every export of tools/', () => {
    const files = sourceFiles(path.join(root, 'tools'));
    expect(files.length).toBeGreaterThan(50);
    expect(undocumentedExports(files)).toEqual([]);
  });
});

/**
 * The exports of electron/ that no other file imports: a maintainer reads an export as something another file
 * needs, so one used only in its own file says what is not so (docs/architecture.md, Electron round 6). Read from the
 * sources alone (TypeScript's parser, no type checker): every import, re-export, `import()`, `import('…').T` type and
 * `require` of a relative path in the repository's TypeScript and JavaScript files counts as a use of the names it
 * takes; a namespace import or a re-export of everything counts as a use of every name.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.git', 'test-results', 'playwright-report', 'reports']);
const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs)$/;

function sourceFiles(folder: string, out: string[]): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sourceFiles(path, out);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.(c|m)?js$/, '.ts'), base + '.ts', base + '.tsx', join(base, 'index.ts')];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

function parse(path: string): ts.SourceFile {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

const EVERY_NAME = '*';

/** Each file's names that other files take (`*` for all of them). */
function importedNames(files: readonly string[], parsed: (path: string) => ts.SourceFile): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const mark = (from: string, specifier: string, name: string): void => {
    const target = resolveRelative(from, specifier);
    if (target === undefined) return;
    let names = used.get(target);
    if (!names) used.set(target, (names = new Set()));
    names.add(name);
  };
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const spec = node.moduleSpecifier.text;
        const clause = node.importClause;
        if (clause?.name) mark(file, spec, 'default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) mark(file, spec, EVERY_NAME);
        else if (bindings) for (const el of bindings.elements) mark(file, spec, (el.propertyName ?? el.name).text);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const spec = node.moduleSpecifier.text;
        const clause = node.exportClause;
        if (clause && ts.isNamedExports(clause))
          for (const el of clause.elements) mark(file, spec, (el.propertyName ?? el.name).text);
        else mark(file, spec, EVERY_NAME);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        const literal = node.argument.literal;
        if (ts.isStringLiteral(literal)) {
          const q = node.qualifier;
          mark(file, literal.text, q && ts.isIdentifier(q) ? q.text : EVERY_NAME);
        }
      } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
        const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const required = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        if (dynamic || required) mark(file, node.arguments[0].text, EVERY_NAME);
      }
      ts.forEachChild(node, visit);
    };
    visit(parsed(file));
  }
  return used;
}

function exportedNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause) {
      if (ts.isNamedExports(statement.exportClause))
        for (const el of statement.exportClause.elements) names.push(el.name.text);
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    if (!modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.push('default');
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    )
      names.push(statement.name.text);
  }
  return names;
}

/**
 * `file: name` for each export of a non-test TypeScript file under `folder` (relative to `root`) that no other
 * file in `root` imports, sorted.
 */
export function unusedExports(root: string, folder: string): string[] {
  const files = sourceFiles(root, []);
  const sources = new Map<string, ts.SourceFile>();
  const parsed = (path: string): ts.SourceFile => {
    let source = sources.get(path);
    if (!source) sources.set(path, (source = parse(path)));
    return source;
  };
  const used = importedNames(files, parsed);
  const found: string[] = [];
  for (const file of files) {
    const rel = relative(root, file).split('\\').join('/');
    if (!rel.startsWith(folder + '/') || !/\.tsx?$/.test(rel) || /\.test\.tsx?$/.test(rel)) continue;
    const taken = used.get(file) ?? new Set<string>();
    if (taken.has(EVERY_NAME)) continue;
    for (const name of exportedNames(parsed(file))) if (!taken.has(name)) found.push(`${rel}: ${name}`);
  }
  return found.sort();
}

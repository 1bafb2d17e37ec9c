// Folder borders (issue 18): reads every import under src/ and fails on one that crosses a border.
// query/ is a self-contained engine, storage/ owns what it stores, http/ is plumbing without SQL.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Comments out, so a path or a word in a comment counts for nothing. */
const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** `from '…'`, `import '…'` and `import('…')` specifiers that name a file of this repository. */
function localImports(file: string, text: string): string[] {
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(SRC, resolve(dirname(file), s)));
}

const FILES = sourceFiles(SRC).map((path) => {
  const text = stripComments(readFileSync(path, 'utf8'));
  return { path: relative(SRC, path), text, imports: localImports(path, text) };
});

const inFolder = (path: string, folders: string[]) => folders.some((f) => path === f || path.startsWith(`${f}/`));

/** Every import from a file under `folder` to a place outside `allowed`, as 'from -> to'. */
function crossings(folder: string, allowed: string[]): string[] {
  return FILES.filter((f) => inFolder(f.path, [folder]))
    .flatMap((f) => f.imports.filter((i) => !inFolder(i, allowed)).map((i) => `${f.path} -> ${i}`))
    .sort();
}

/** A statement or its keywords in upper case, as this code base writes SQL. */
const SQL = /\b(SELECT\s[\s\S]{0,400}?\bFROM\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TEMP\s+)?(TABLE|VIEW|INDEX)\b)/;

describe('folder borders', () => {
  test('query/ imports nothing from a feature folder or http/: only itself, storage/ and the logger', () => {
    expect(crossings('query', ['query', 'storage', 'log.ts'])).toEqual([]);
  });

  test('storage/ imports nothing from ingest/ or any feature: only itself, the runtime and the logger', () => {
    expect(crossings('storage', ['storage', 'runtime', 'log.ts'])).toEqual([]);
  });

  test('http/ is plumbing: it imports no feature, no storage and of query/ only its error type (to map it to a status)', () => {
    expect(crossings('http', ['http', 'runtime', 'log.ts', 'query/errors.ts'])).toEqual([]);
  });

  test('query/ reads stored rows only through its planner: plan/ alone imports tableSource (and the all-time period start, parse/first-visit.ts)', () => {
    const readers = FILES.filter((f) => inFolder(f.path, ['query']) && f.imports.includes(join('storage', 'sources.ts'))).map((f) => f.path);
    expect(readers.filter((p) => !p.startsWith(join('query', 'plan') + '/') && p !== join('query', 'parse', 'first-visit.ts'))).toEqual([]);
    expect(readers.length).toBeGreaterThan(0);
  });
  test('no file under http/ contains SQL', () => {
    expect(FILES.filter((f) => inFolder(f.path, ['http']) && SQL.test(f.text)).map((f) => f.path)).toEqual([]);
  });

  test('the checks see the code: the SQL pattern finds the SQL in storage/, and imports are read', () => {
    expect(FILES.filter((f) => inFolder(f.path, ['storage']) && SQL.test(f.text)).length).toBeGreaterThan(3);
    expect(FILES.find((f) => f.path === 'server.ts')!.imports).toContain('storage/database.ts');
  });
});

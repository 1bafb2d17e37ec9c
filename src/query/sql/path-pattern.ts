// Goal path globs: '*' is one path segment, '**' any depth. As an anchored regular expression, or as the
// cheaper SQL test DuckDB runs fastest with a bound pattern (equality or LIKE; regex only for mixed globs).
const REGEX_SPECIALS = /[.+?^${}()|[\]\\]/g;
const LIKE_SPECIALS = /[%_\\]/g;

/** '/blog/*' matches '/blog/a' but not '/blog/a/b'; '/blog/**' matches both. Everything else is literal. */
export function pathPatternRegex(pattern: string): string {
  const parts = pattern.split('**').map((chunk) =>
    chunk
      .split('*')
      .map((lit) => lit.replace(REGEX_SPECIALS, '\\$&'))
      .join('[^/]*'),
  );
  return `^${parts.join('.*')}$`;
}

export type PathTest =
  | { kind: 'equals'; value: string }
  | { kind: 'like'; pattern: string }
  /** LIKE plus an exact count of '/' so that no '%' spans a segment boundary. */
  | { kind: 'like_depth'; pattern: string; slashes: number }
  | { kind: 'regex'; pattern: string };

const likeOf = (pattern: string, wildcard: RegExp) =>
  pattern.split(wildcard).map((lit) => lit.replace(LIKE_SPECIALS, '\\$&')).join('%');

/** The cheapest exact test for a glob: a regular expression bound as a parameter is recompiled per row. */
export function pathTest(pattern: string): PathTest {
  const hasDeep = pattern.includes('**');
  const hasSingle = pattern.replaceAll('**', '').includes('*');
  if (!hasDeep && !hasSingle) return { kind: 'equals', value: pattern };
  if (hasDeep && !hasSingle) return { kind: 'like', pattern: likeOf(pattern, /\*\*/) };
  if (!hasDeep) return { kind: 'like_depth', pattern: likeOf(pattern, /\*/), slashes: pattern.split('/').length - 1 };
  return { kind: 'regex', pattern: pathPatternRegex(pattern) };
}

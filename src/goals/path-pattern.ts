// Goal path globs → anchored regular expressions: '*' is one path segment, '**' any depth.
const REGEX_SPECIALS = /[.+?^${}()|[\]\\]/g;

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

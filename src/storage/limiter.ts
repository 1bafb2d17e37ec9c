// At most n of some async work at once: a limit shared by callers that start work independently (an erasure's
// DuckDB re-encodings across the files it rewrites), taken in the order asked, and a list worked through n at a
// time (files rewritten, objects uploaded).

export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export function limiter(n: number): Limit {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= n) await new Promise<void>((go) => waiting.push(go));
    else running++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next in line, so a late caller cannot overtake it.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** No limit: each call runs at once. */
export const unlimited: Limit = (fn) => fn();

/** `fn` over `items`, at most `n` at a time; after a failure no new item starts, and every started call settles before this throws. */
export async function inParallel<T>(items: T[], n: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (next < items.length && failed === undefined) {
      const item = items[next++]!;
      try { await fn(item); } catch (e) { failed ??= e; }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failed !== undefined) throw failed;
}

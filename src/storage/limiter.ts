// At most n of some async work at once, shared by callers that start it independently (an erasure's DuckDB
// re-encodings across the files it rewrites), taken in the order asked.

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

// Timing analytics requests over HTTP, one variant or several alternating request by request (so that all
// see the same load of the shared machine), and the percentiles the reports print.
/** Nearest-rank percentile (q in [0, 1]); NaN (a failed run) sorts last. Of n runs, p99 is the slowest when n < 100. */
export function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => (isNaN(a) ? 1 : isNaN(b) ? -1 : a - b));
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

export type Timing = { p50: number; p99: number; runs: number[] };

/** One GET with a bearer token, timed to the end of its body; NaN (and a log line) unless it answered 200. */
export async function timeGet(url: string, token: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await r.text();
  if (r.status === 200) return performance.now() - t0;
  console.log(`${url}: HTTP ${r.status} ${text.slice(0, 200)}`);
  return NaN;
}

/**
 * Each variant's request `runs` times, the variants taking turns within every run; run 0 of each is a warm-up.
 * Returns p50 and p99 per variant name.
 */
export async function timeAlternating(runs: number, variants: Record<string, () => Promise<number>>): Promise<Record<string, Timing>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i <= runs; i++) {
    for (const [name, run] of Object.entries(variants)) {
      const t = await run();
      if (i > 0) samples[name]!.push(t);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, { p50: percentile(xs, 0.5), p99: percentile(xs, 0.99), runs: xs }]));
}

export const ms = (x: number) => (isNaN(x) ? 'failed' : x < 10 ? x.toFixed(1) : x.toFixed(0));

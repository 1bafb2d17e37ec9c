// Bulk import over HTTP as the import bench does it: generated events (visitor by visitor, each visitor's events in
// time order) sent as NDJSON requests of `lines` lines; the rate per step, the total, and the visits the events
// hold (cut at 30-minute gaps), which the stored visits equal when imports continue visits across requests.
import { generateEvents, type ImportEvent } from './generate.ts';

const GAP_MS = 30 * 60_000;

export type ImportRun = { stored: number; seconds: number; rate: number; slowestStep: number; trueVisits: number };
export type ImportOptions = {
  /** The site's import URL (…/sites/{id}/events/import) and a token allowed to import. */
  url: string; token: string;
  events: number; lines?: number; seed?: number; days?: number; end?: Date;
  /** Events per reported step; `onStep` gets the events stored so far and the step's rate. */
  step?: number; onStep?: (stored: number, rate: number) => void;
};

export async function importRate(o: ImportOptions): Promise<ImportRun> {
  const lines = o.lines ?? 50_000;
  const step = o.step ?? Math.min(1_000_000, Math.max(lines, Math.round(o.events / 10)));
  const gen = generateEvents({ events: o.events, seed: o.seed ?? 7, days: o.days, end: o.end ?? new Date(Date.now() - 86_400_000) });
  let trueVisits = 0;
  let lastVisitor = '';
  let lastMs = 0;
  const count = (e: ImportEvent) => {
    const t = Date.parse(e.timestamp);
    if (e.visitor_uid !== lastVisitor || t - lastMs >= GAP_MS) trueVisits++;
    lastVisitor = e.visitor_uid;
    lastMs = t;
  };
  const body = (): string | null => {
    const out: string[] = [];
    while (out.length < lines) {
      const r = gen.next();
      if (r.done) break;
      count(r.value);
      out.push(JSON.stringify(r.value));
    }
    return out.length ? out.join('\n') + '\n' : null;
  };
  let stored = 0;
  let stepStart = performance.now();
  let stepEvents = 0;
  let slowestStep = Infinity;
  const t0 = performance.now();
  for (let b = body(); b !== null; b = body()) {
    const r = await fetch(o.url, { method: 'POST', headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/x-ndjson' }, body: b });
    const res = JSON.parse(await r.text());
    if (r.status !== 200 || !res.data) throw new Error(`import request failed: ${r.status} ${JSON.stringify(res)}`);
    stored += res.data.imported;
    stepEvents += res.data.imported;
    if (stepEvents >= step || stored >= o.events) {
      const rate = stepEvents / ((performance.now() - stepStart) / 1000);
      slowestStep = Math.min(slowestStep, rate);
      o.onStep?.(stored, rate);
      stepStart = performance.now();
      stepEvents = 0;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return { stored, seconds, rate: stored / seconds, slowestStep, trueVisits };
}

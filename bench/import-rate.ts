// Bulk import over HTTP as a migration does it: generated events (visitor by visitor, each visitor's events in
// time order) written first as an NDJSON export file under bench/out/, then sent from that file as requests of
// `lines` lines; the rate per step, the total, and the visits the events hold (cut at 30-minute gaps), which
// the stored visits equal when imports continue visits across requests.
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { generateEvents, type ImportEvent } from './generate.ts';

const GAP_MS = 30 * 60_000;
const OUT = join(import.meta.dir, 'out');

export type ImportRun = { stored: number; seconds: number; rate: number; slowestStep: number; trueVisits: number; prepareSeconds: number };
export type ImportOptions = {
  /** The site's import URL (…/sites/{id}/events/import) and a token allowed to import. */
  url: string; token: string;
  events: number; lines?: number; seed?: number; days?: number; end?: Date;
  /** Requests kept in flight (default 1: each sent once the previous one has answered). */
  inFlight?: number;
  /** Events per reported step; `onStep` gets the events stored so far and the step's rate. */
  step?: number; onStep?: (stored: number, rate: number) => void;
};

/**
 * Writes the events as one NDJSON file (a migration's export) before any timing: building 50k lines took the
 * client ~136 ms per request, inside the measured rate, while the server idled. Returns each request's byte range.
 */
function writeExport(o: ImportOptions, lines: number, file: string): { bodies: [number, number][]; trueVisits: number } {
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
  const fd = openSync(file, 'w');
  const bodies: [number, number][] = [];
  let at = 0;
  try {
    for (;;) {
      const out: string[] = [];
      while (out.length < lines) {
        const r = gen.next();
        if (r.done) break;
        count(r.value);
        out.push(JSON.stringify(r.value));
      }
      if (!out.length) break;
      const bytes = Buffer.from(out.join('\n') + '\n');
      writeSync(fd, bytes);
      bodies.push([at, bytes.length]);
      at += bytes.length;
    }
  } finally { closeSync(fd); }
  return { bodies, trueVisits };
}

export async function importRate(o: ImportOptions): Promise<ImportRun> {
  const lines = o.lines ?? 50_000;
  const step = o.step ?? Math.min(1_000_000, Math.max(lines, Math.round(o.events / 10)));
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, `import-export-${process.pid}.ndjson`);
  const p0 = performance.now();
  const { bodies, trueVisits } = writeExport(o, lines, file);
  const prepareSeconds = (performance.now() - p0) / 1000;
  const fd = openSync(file, 'r');
  let stored = 0;
  let stepStart = performance.now();
  let stepEvents = 0;
  let slowestStep = Infinity;
  const t0 = performance.now();
  try {
    // Each request's body is read from the file inside the timing, as a migration script reads its export.
    const send = async ([at, len]: [number, number]) => {
      const b = Buffer.allocUnsafe(len);
      readSync(fd, b, 0, len, at);
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
    };
    // With more than one in flight, each request goes out as soon as one answers, in the file's order; the
    // server loads them in the order they arrived (src/ingest/import-order.ts).
    let next = 0;
    await Promise.all(Array.from({ length: o.inFlight ?? 1 }, async () => { while (next < bodies.length) await send(bodies[next++]!); }));
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  return { stored, seconds, rate: stored / seconds, slowestStep, trueVisits, prepareSeconds };
}

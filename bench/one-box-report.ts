// The Markdown report of `npm run bench` (bench/one-box.ts): every size measured so far (one JSON file each in
// bench/out/one-box/), side by side, with the targets of one box beneath.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Timing } from './http-timing.ts';
import type { SmallSiteResult } from './small-site.ts';
import type { StoreSize } from './store-size.ts';
import type { WrkResult } from './wrk.ts';

export type SizeResult = {
  events: number; measuredAt: string; runs: number; memory: string; load: [number, number]; machine?: string;
  size: StoreSize; queries: { endpoint: string; scenario: string; t: Timing }[]; small: SmallSiteResult | null;
  ingest: WrkResult | null; rssQueriesMb: number; rssPeakMb: number;
};

const TARGETS = { '12mo': 3000, '30d': 300, bytes: 25, smallRatio: 1.5 };
const n = (x: number, d = 0) => (x == null || isNaN(x) ? '–' : x.toLocaleString('en', { maximumFractionDigits: d, minimumFractionDigits: d }));
const ms = (x: number) => (isNaN(x) ? 'failed' : x < 10 ? x.toFixed(1) : x.toFixed(0));
const label = (events: number) => (events >= 1e6 ? `${n(events / 1e6)}M` : n(events));

export function renderReport(dir: string, command: string): string {
  const results = (existsSync(dir) ? readdirSync(dir) : []).filter((f) => /^\d+\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SizeResult).sort((a, b) => a.events - b.events);
  const cols = results.map((r) => label(r.events));
  const out: string[] = [];
  out.push('# One box: Tern measured by size', '');
  out.push(`Command: \`${command}\`. Machine: ${results[0]?.machine ?? 'unknown'}. Each size was measured at the time shown, with the load`);
  out.push('average of the machine at its start and end (other work on a shared machine makes every figure noisy: compare ratios taken in one run).', '');
  out.push(`| | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---:').join('|')}|`);
  const row = (name: string, f: (r: SizeResult) => string) => out.push(`| ${name} | ${results.map(f).join(' | ')} |`);
  row('run ended (UTC)', (r) => r.measuredAt.slice(0, 16).replace('T', ' '));
  row('load average start → end', (r) => `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`);
  row('**bytes per stored event** (target ≤ 25)', (r) => `**${n(r.size.perEvent, 1)}**`);
  row('… Parquet events / visits', (r) => `${n(r.size.parquetEvents / r.events, 1)} / ${n(r.size.parquetVisits / r.events, 1)}`);
  row('… DuckDB file (of it free blocks) + WAL', (r) => `${n(r.size.duckdbFile / r.events, 1)} (${n(r.size.duckdbFree / r.events, 1)}) + ${n(r.size.duckdbWal / r.events, 1)}`);
  row('**ingest events/s** (wrk, 64 conn., into this store)', (r) => (r.ingest ? `**${n(r.ingest.rps)}**` : '–'));
  row('… ingest p50 / p99 ms', (r) => (r.ingest ? `${ms(r.ingest.p50)} / ${ms(r.ingest.p99)}` : '–'));
  row('**import events/s** (50k-line requests, new site in this store)', (r) => (r.small ? `**${n(r.small.importShared.rate)}**` : '–'));
  row('… same import into an empty store', (r) => (r.small ? n(r.small.importAlone.rate) : '–'));
  row('**peak RSS MB** (whole run) / during the queries', (r) => `**${n(r.rssPeakMb)}** / ${n(r.rssQueriesMb)}`);
  row('query runs per cell (p99 of n < 100 runs = slowest)', (r) => `${r.runs}`);
  out.push('');

  const keys = [...new Set(results.flatMap((r) => r.queries.map((q) => `${q.endpoint}|${q.scenario}`)))];
  out.push('## Reports, p50 / p99 ms over HTTP', '', `| endpoint | range | ${cols.join(' | ')} |`, `|---|---|${cols.map(() => '---:').join('|')}|`);
  for (const k of keys) {
    const [e, s] = k.split('|');
    out.push(`| ${e} | ${s} | ${results.map((r) => { const q = r.queries.find((x) => `${x.endpoint}|${x.scenario}` === k); return q ? `${ms(q.t.p50)} / ${ms(q.t.p99)}` : '–'; }).join(' | ')} |`);
  }
  out.push('');

  const withSmall = results.filter((r) => r.small);
  if (withSmall.length) {
    out.push(`## A small site in the big store vs alone, p50 ms (same events, same run, requests alternating)`, '');
    out.push(`| endpoint | range | ${withSmall.map((r) => `${label(r.small!.events)} in ${label(r.events)} / alone (ratio)`).join(' | ')} |`, `|---|---|${withSmall.map(() => '---:').join('|')}|`);
    for (const k of [...new Set(withSmall.flatMap((r) => r.small!.rows.map((x) => `${x.endpoint}|${x.scenario}`)))]) {
      const [e, s] = k.split('|');
      out.push(`| ${e} | ${s} | ${withSmall.map((r) => { const x = r.small!.rows.find((y) => `${y.endpoint}|${y.scenario}` === k)!; return `${ms(x.shared.p50)} / ${ms(x.alone.p50)} (${(x.shared.p50 / x.alone.p50).toFixed(2)})`; }).join(' | ')} |`);
    }
    out.push('');
  }

  out.push('## Against the targets', '', 'The issue sets them for 100M events on this 2-core machine; a smaller store that misses one will miss it at 100M too, unless the machine was busier (load average above).', '');
  for (const r of results) {
    const worst = (s: string) => r.queries.filter((q) => q.scenario === s).reduce((m, q) => (q.t.p50 > m.t.p50 ? q : m));
    const w12 = worst('12mo');
    const w30 = worst('30d');
    const ratios = r.small?.rows.map((x) => x.shared.p50 / x.alone.p50) ?? [];
    const ok = (b: boolean) => (b ? 'met' : '**not met**');
    out.push(`- ${label(r.events)}: slowest 12-month p50 ${ms(w12.t.p50)} ms (${w12.endpoint}; ≤ ${TARGETS['12mo']} ms: ${ok(w12.t.p50 <= TARGETS['12mo'])}), ` +
      `slowest 30-day p50 ${ms(w30.t.p50)} ms (${w30.endpoint}; ≤ ${TARGETS['30d']} ms: ${ok(w30.t.p50 <= TARGETS['30d'])}), ` +
      `${n(r.size.perEvent, 1)} bytes per event (≤ ${TARGETS.bytes}: ${ok(r.size.perEvent <= TARGETS.bytes)})` +
      (ratios.length ? `, small site in the store / alone: median ratio ${ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!.toFixed(2)}, worst ${Math.max(...ratios).toFixed(2)}` : '') + '.');
  }
  return out.join('\n') + '\n';
}

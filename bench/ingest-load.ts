// Loader benchmark (prints figures, asserts nothing): the CPU one event costs the loader, by how many
// one-second log segments a load takes together, into an empty store and into a copy of the 10M-event
// query store (bench/out/query-data, from bench/query.ts), whose visitor tables hold a year of history.
//   bun bench/ingest-load.ts [--events 110000] [--segments 10] [--groups 1,5,10] [--threads 1]
// Segments are written the way the live server writes them (generated events in arrival order, enriched,
// sessionized, one log line each), then loaded with the loader's own SQL (src/ingest/load-sql.ts).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateEvents } from './generate.ts';
import { Database } from '../src/storage/database.ts';
import { migrate } from '../src/storage/migrate.ts';
import { ParquetManifest } from '../src/storage/parquet-layout.ts';
import { Serial } from '../src/storage/serial.ts';
import { load } from '../src/ingest/load-sql.ts';
import { BACKGROUND_THREADS } from '../src/storage/database.ts';
import { agentOf } from '../src/ingest/enrich/agent.ts';
import { readLogSql, toLine } from '../src/ingest/log-format.ts';
import { liveRow } from '../src/ingest/record.ts';
import { Sessionizer } from '../src/ingest/sessionizer.ts';
import { uidVisitorId } from '../src/ingest/hash.ts';
import { parseImportLine } from '../src/ingest/validate.ts';
import { ApiError } from '../src/http/errors.ts';

const { values: opt } = parseArgs({
  options: {
    events: { type: 'string', default: '110000' }, segments: { type: 'string', default: '10' }, groups: { type: 'string', default: '1,5,10' },
    // DuckDB threads per load: the loader's own setting unless given (0: DuckDB's default, one per core).
    threads: { type: 'string', default: String(BACKGROUND_THREADS) },
  },
});
const out = join(import.meta.dir, 'out', 'ingest-load');
const queryStore = join(import.meta.dir, 'out', 'query-data');
const SITE = { id: '00000000-0000-4000-8000-00000000be01', public_id: 'pk_live_bench', domain: 'example.com' };

/** The store's site: the query store's own, or one created in a fresh store. */
async function prepare(dir: string, from: string | null): Promise<string> {
  rmSync(dir, { recursive: true, force: true });
  if (from) {
    cpSync(from, dir, { recursive: true });
    return (JSON.parse(readFileSync(join(from, 'bench.json'), 'utf8')) as { siteId: string }).siteId;
  }
  const db = await Database.open(dir, 1, '2GB');
  await migrate(db);
  await db.exec(`INSERT INTO organizations VALUES ('${SITE.id}', 'bench', 'startup', now())`);
  await db.exec(`INSERT INTO sites (id, org_id, public_id, domain, name, timezone, currency, created_at) VALUES (?, ?, ?, ?, 'bench', 'UTC', 'USD', now())`,
    [SITE.id, SITE.id, SITE.public_id, SITE.domain]);
  await db.close();
  return SITE.id;
}

/** `segments` log files of one site's generated events over the last minutes, in arrival order. */
function writeSegments(dir: string, siteId: string): string[] {
  mkdirSync(dir, { recursive: true });
  const fail = (status: number, msg: string) => new ApiError(status, msg);
  const events = [...generateEvents({ events: Number(opt.events), seed: 5, days: 1 })].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const sessions = new Sessionizer();
  const site = { ...SITE, id: siteId } as any;
  const lines = events.map((g) => {
    const e = parseImportLine(JSON.stringify(g), fail);
    const origin = { ip: e.ip ?? '', userAgent: e.user_agent ?? '' };
    return toLine(liveRow(sessions, site, e, origin, agentOf(origin.userAgent), uidVisitorId(siteId, e.visitor_uid!), e.timestamp));
  });
  const per = Math.ceil(lines.length / Number(opt.segments));
  const paths: string[] = [];
  for (let i = 0; i < lines.length; i += per) {
    const p = join(dir, `${String(i).padStart(9, '0')}.ndjson`);
    writeFileSync(p, lines.slice(i, i + per).join('\n') + '\n');
    paths.push(p);
  }
  return paths;
}

async function run(label: string, from: string | null, group: number) {
  const dir = join(out, 'store');
  const siteId = await prepare(dir, from);
  const segments = writeSegments(join(out, 'segments'), siteId);
  const db = await Database.open(dir, 2, '2GB');
  const manifest = new ParquetManifest(dir);
  await manifest.load(db);
  const serial = new Serial();
  let rows = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < segments.length; i += group) {
    rows += await load(db, serial, manifest, { sql: readLogSql, params: [segments.slice(i, i + group)], inArrivalOrder: true }, undefined, { threads: Number(opt.threads) });
  }
  const cpu = process.cpuUsage(cpu0);
  const ms = performance.now() - t0;
  await db.close();
  console.log(`${label.padEnd(28)} ${String(group).padStart(3)} segment(s) per load   ${(((cpu.user + cpu.system) / rows)).toFixed(1).padStart(5)} µs CPU per event   ${(ms / Math.ceil(segments.length / group)).toFixed(0).padStart(5)} ms per load   (${rows.toLocaleString('en')} events)`);
}

const groups = opt.groups.split(',').map(Number);
console.log(`${Number(opt.events).toLocaleString('en')} events in ${opt.segments} segments, ${navigator.hardwareConcurrency} cores, DuckDB threads per load: ${Number(opt.threads) || 'all'}`);
for (const g of groups) await run('empty store', null, g);
if (existsSync(join(queryStore, 'bench.json'))) for (const g of groups) await run('10M-event store (a copy)', queryStore, g);
else console.log('(no bench/out/query-data: run bun bench/query.ts once for the 10M-event store)');
rmSync(out, { recursive: true, force: true });

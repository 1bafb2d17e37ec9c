// How few bytes per event a store's data could take at rest: every site and month of a store (no server holding
// it) rewritten side by side in layouts from Tern's own to a floor that keeps only what the contract returns, and
// the DuckDB file's tables grouped by what they serve. The floor is the question issue 22's 25-byte target asks.
// Usage: bun bench/bytes-floor.ts [--store bench/out/query-data] [--months N (the N largest; default all)]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { FULL_ROW_GROUP } from '../src/storage/parquet-writer.ts';

const { values: args } = parseArgs({ options: { store: { type: 'string', default: 'bench/out/query-data' }, months: { type: 'string' } } });
const STORE = args.store!;

/** Marks as gaps back from the event's own time (NULL: none), which is what they mean; see storage/marks.ts. */
const GAPS = `CASE WHEN seen_prev = 0 THEN NULL ELSE epoch_ms(ts) - seen_prev END AS seen_gap,
  CASE WHEN page_prev = 0 THEN NULL WHEN page_prev < 0 THEN -(epoch_ms(ts) + page_prev) ELSE epoch_ms(ts) - page_prev END AS page_gap`;

type Layout = { name: string; why: string; events: string; visits: string; options: string };
const LAYOUTS: Layout[] = [
  { name: 'stored', why: "Tern's files as they are (LZ4, time order, 64-bit ids, marks as times)", events: '', visits: '', options: '' },
  { name: 'zstd', why: 'the same rows and order, zstd level 3', events: 'SELECT * FROM e', visits: 'SELECT * FROM v', options: `COMPRESSION zstd, ROW_GROUP_SIZE ${FULL_ROW_GROUP}` },
  {
    name: 'sorted + gaps + zstd', why: 'sorted by visitor then time, marks as gaps from the time, zstd level 3',
    events: `SELECT * EXCLUDE (seen_prev, page_prev), ${GAPS} FROM e ORDER BY visitor_id, ts`,
    visits: 'SELECT * FROM v ORDER BY visitor_id, start_ts', options: `COMPRESSION zstd, ROW_GROUP_SIZE ${FULL_ROW_GROUP}`,
  },
  {
    // Optimistic on purpose: ids numbered per month (a store needs them numbered across months), url kept only
    // when it is not https://hostname/path, no mark, zstd at its slowest level and row groups of a million rows.
    name: 'floor (no marks)', why: 'only what the contract returns: dense 32-bit ids, no marks, url only when not derivable, zstd 19, 1M-row groups',
    events: `SELECT * EXCLUDE (visitor_id, visit_id, seen_prev, page_prev, attrs_changed, url, site_id, hostname), vnum, snum,
      CASE WHEN url = 'https://' || hostname || path THEN NULL ELSE url END AS url_rest
      FROM e JOIN vn USING (visitor_id) JOIN sn USING (visit_id) ORDER BY vnum, ts`,
    visits: `SELECT * EXCLUDE (visitor_id, visit_id, site_id, hostname, end_ts, visit_prev, attrs_changed, source_prev, channel_prev), vnum, snum
      FROM v JOIN vn USING (visitor_id) JOIN sn USING (visit_id) ORDER BY vnum, start_ts`,
    options: 'COMPRESSION zstd, COMPRESSION_LEVEL 19, ROW_GROUP_SIZE 1000000',
  },
];

const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.parquet') ? [join(d, e.name)] : []));
const bytes = (paths: string[]) => paths.reduce((s, p) => s + statSync(p).size, 0);
const quote = (p: string) => `'${p.replaceAll("'", "''")}'`;
const one = async (c: DuckDBConnection, q: string) => (await c.runAndReadAll(q)).getRowObjectsJS()[0] as Record<string, unknown>;

/** Every site=/month= directory holding events, largest first, with the visits directory beside it. */
function partitions() {
  const root = join(STORE, 'parquet', 'events');
  const out = readdirSync(root).flatMap((site) => readdirSync(join(root, site)).map((month) => ({
    events: files(join(root, site, month)), visits: (() => { try { return files(join(STORE, 'parquet', 'visits', site, month)); } catch { return []; } })(),
  })));
  out.sort((a, b) => bytes(b.events) - bytes(a.events));
  return args.months ? out.slice(0, Number(args.months)) : out;
}

const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const tmp = mkdtempSync(join(tmpdir(), 'tern-bytes-floor-'));
const sum = LAYOUTS.map(() => ({ events: 0, visits: 0 }));
let events = 0;
try {
  for (const p of partitions()) {
    const list = (fs: string[]) => `[${fs.map(quote).join(', ')}]`;
    await c.run(`CREATE OR REPLACE TABLE e AS SELECT * FROM read_parquet(${list(p.events)}, hive_partitioning = false)`);
    await c.run(p.visits.length ? `CREATE OR REPLACE TABLE v AS SELECT * FROM read_parquet(${list(p.visits)}, hive_partitioning = false)` : 'CREATE OR REPLACE TABLE v AS SELECT * FROM e LIMIT 0');
    await c.run('CREATE OR REPLACE TABLE vn AS SELECT visitor_id, (row_number() OVER ())::INTEGER AS vnum FROM (SELECT DISTINCT visitor_id FROM e UNION SELECT visitor_id FROM v)');
    await c.run('CREATE OR REPLACE TABLE sn AS SELECT visit_id, (row_number() OVER ())::INTEGER AS snum FROM (SELECT DISTINCT visit_id FROM e UNION SELECT visit_id FROM v)');
    events += Number((await one(c, 'SELECT count(*) AS n FROM e')).n);
    for (const [i, l] of LAYOUTS.entries()) {
      if (!l.events) { sum[i]!.events += bytes(p.events); sum[i]!.visits += bytes(p.visits); continue; }
      for (const [tbl, q] of [['events', l.events], ['visits', l.visits]] as const) {
        if (tbl === 'visits' && !p.visits.length) continue;
        const f = join(tmp, `${tbl}.parquet`);
        await c.run(`COPY (${q}) TO ${quote(f)} (FORMAT parquet, ${l.options})`);
        sum[i]![tbl] += statSync(f).size;
        rmSync(f);
      }
    }
  }
  // The DuckDB file, by what each table serves: the marks' per-visitor state, the visitor registry (the visitors
  // API, /identify, visits continued across loads), the property and engagement indexes, the rest.
  await c.run(`ATTACH ${quote(join(STORE, 'tern.duckdb'))} AS s (READ_ONLY)`);
  const tables = (await c.runAndReadAll("SELECT table_name AS t FROM duckdb_tables() WHERE database_name = 's'")).getRowObjectsJS().map((r) => String(r.t));
  const group = (t: string) => (t === 'visitor_history' ? 'marks' : t === 'visitors' ? 'registry' : /^(prop_|file_engagement|event_counts)/.test(t) ? 'indexes' : 'other');
  const db: Record<string, number> = { marks: 0, registry: 0, indexes: 0, other: 0 };
  const { block_size } = await one(c, "SELECT block_size FROM pragma_database_size() WHERE database_name = 's'");
  for (const t of tables) {
    const { blocks } = await one(c, `SELECT count(DISTINCT block_id) AS blocks FROM pragma_storage_info('s.${t}') WHERE block_id >= 0`);
    db[group(t)]! += Number(blocks) * Number(block_size);
  }
  // The visitor registry as small as it could be: the table in one zstd-19 Parquet file.
  const reg = join(tmp, 'visitors.parquet');
  await c.run(`COPY s.visitors TO ${quote(reg)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 19)`);
  const registryFloor = statSync(reg).size;
  // The DuckDB file holds every month's state: over the store's events, whatever --months took.
  const all = Number((await one(c, `SELECT sum(num_rows) AS n FROM parquet_file_metadata(${quote(join(STORE, 'parquet', 'events', '**', '*.parquet'))})`)).n);
  const dbPer = (b: number) => (b / all).toFixed(1);
  const per = (b: number) => (b / events).toFixed(1);
  console.log(`\n${events.toLocaleString('en-US')} events of ${STORE}; bytes per event at rest\n`);
  console.log('| layout | events | visits | DuckDB file kept | total | what it is |\n|---|---:|---:|---:|---:|---|');
  for (const [i, l] of LAYOUTS.entries()) {
    const kept = (i === LAYOUTS.length - 1 ? registryFloor : db.marks! + db.registry! + db.indexes! + db.other!) / all;
    const s = sum[i]!;
    console.log(`| ${l.name} | ${per(s.events)} | ${per(s.visits)} | ${kept.toFixed(1)} | **${(((s.events + s.visits) / events) + kept).toFixed(1)}** | ${l.why} |`);
  }
  console.log(`\nDuckDB file (used blocks, per event of the whole store): marks' visitor state ${dbPer(db.marks!)}, visitor registry ${dbPer(db.registry!)}, property and engagement indexes ${dbPer(db.indexes!)}, other ${dbPer(db.other!)}.`);
  console.log(`The floor keeps the visitor registry alone of the DuckDB file, as one zstd-19 Parquet file (${dbPer(registryFloor)}): no marks, no index.`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

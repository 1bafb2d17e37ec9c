// Loads Tern's sealed batches into ClickHouse: every registered Parquet file (the loader's event batches, the
// compactor's closed visits, merged and rewritten files) has its rows in ClickHouse's table, tagged with the
// file's path, and a file that left the registry (merged away, retention, erasure, a deleted site) has its
// rows deleted. Like the object mirror, the work is the difference between the registry and ClickHouse's
// list of files, so a crash or an unreachable server leaves it to do again; inserts carry the file's path as
// their deduplication token, so an insert repeated after a crash adds nothing.
import { existsSync } from 'node:fs';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Database } from '../database.ts';
import type { ParquetManifest, Table } from '../parquet-layout.ts';
import { sqlPath } from '../parquet-layout.ts';
import { deleteRowsSql, FILE_COL, FILES_TABLE, identifier } from './schema.ts';
import { Rounds } from '../rounds.ts';

const DEBOUNCE_MS = 200;
/** A round also runs this often unprompted (a server that was down is caught up with). */
const POLL_MS = 60_000;

/** Timestamps as ClickHouse reads them (microseconds, UTC). */
const TIME_COLS: Record<Table, string[]> = { events: ['ts'], visits: ['start_ts', 'end_ts'] };

/** A row of FILES_TABLE. */
type Listed = { path: string; tbl: Table; live: number };

export class ClickHouseMirror {
  private readonly rounds = new Rounds(() => this.round(), { what: 'loading parquet files into clickhouse', debounceMs: DEBOUNCE_MS, pollMs: POLL_MS });
  private unsubscribe: (() => void) | undefined;
  private readonly d: string;

  constructor(private db: Database, private manifest: ParquetManifest, private ch: ClickHouseClient, database: string, private cluster?: string) {
    this.d = identifier(database);
  }

  start() {
    this.unsubscribe = this.manifest.onChange(() => this.rounds.kick());
    this.rounds.start();
  }

  /** Waits for the round in flight, then runs a last one so that what was sealed before stopping is loaded. */
  async stop() {
    this.unsubscribe?.();
    await this.rounds.stop({ last: true });
  }

  /** One round now (tests, and a caller that must see its files loaded). */
  sync(): Promise<void> {
    return this.rounds.sync();
  }

  /**
   * Loads the registered files ClickHouse lacks and retires the ones that left the registry. A new file's rows
   * count only once it is switched live, in the same insert that switches off the files that left, so a merge
   * is never counted twice nor missed; retired rows are deleted after. A file is listed (not live) before its
   * rows go in, so rows are never left behind unlisted by a crash.
   */
  private async round() {
    const registered = await this.db.query<{ path: string; tbl: Table }>('SELECT path, tbl FROM parquet_files');
    const listed = await this.json<Listed>(`SELECT path, tbl, live FROM ${this.d}.${FILES_TABLE} FINAL`);
    const byPath = new Map(listed.map((f) => [f.path, f]));
    const want = new Set(registered.map((f) => f.path));
    const fresh = registered.filter((f) => !byPath.get(f.path)?.live && existsSync(this.manifest.abs(f.path)));
    const unlisted = fresh.filter((f) => !byPath.has(f.path));
    if (unlisted.length) await this.list(unlisted.map((f) => ({ ...f, live: 0 })));
    const loaded: Listed[] = [];
    for (const f of fresh) {
      if (await this.load(f.path, f.tbl)) loaded.push({ ...f, live: 1 });
    }
    const retired = listed.filter((f) => !want.has(f.path));
    const switching = [...loaded, ...retired.filter((f) => f.live).map((f) => ({ ...f, live: 0 }))];
    if (switching.length) await this.list(switching);
    for (const tbl of ['events', 'visits'] as const) {
      const paths = retired.filter((f) => f.tbl === tbl).map((f) => f.path);
      if (!paths.length) continue;
      await this.ch.command({ query: deleteRowsSql(this.d, tbl, this.cluster), query_params: { paths } });
      await this.ch.command({ query: `DELETE FROM ${this.d}.${FILES_TABLE} WHERE path IN {paths:Array(String)}`, query_params: { paths } });
    }
  }

  /** One insert of file states: atomic, and never dropped as a repeat (an off after an on repeats the first row). */
  private list(files: Listed[]) {
    return this.ch.insert({ table: `${this.d}.${FILES_TABLE}`, values: files, format: 'JSONEachRow', clickhouse_settings: { insert_deduplicate: 0 } });
  }

  /** One file's rows, as DuckDB renders them in JSON (maps as objects, decimals as numbers); false once it is gone. */
  private async load(path: string, tbl: Table): Promise<boolean> {
    // Merged away since the registry was read: the next round retires it.
    if (!existsSync(this.manifest.abs(path))) return false;
    const times = TIME_COLS[tbl].map((c) => `strftime(${c}, '%Y-%m-%d %H:%M:%S.%f') AS ${c}`).join(', ');
    const rows = await this.db.query<{ j: string }>(
      `SELECT to_json(t)::VARCHAR AS j FROM (SELECT * REPLACE (${times}), ? AS ${FILE_COL} FROM read_parquet(${sqlPath(this.manifest.abs(path))})) t`, [path]);
    if (rows.length) {
      await this.ch.insert({ table: `${this.d}.${tbl}`, values: rows.map((r) => JSON.parse(r.j)), format: 'JSONEachRow',
        clickhouse_settings: { insert_deduplication_token: path } });
    }
    return true;
  }

  private async json<T>(query: string): Promise<T[]> {
    return (await this.ch.query({ query, format: 'JSONEachRow' })).json<T>();
  }
}

// Data retention (sites.retention_months): compaction deletes what is older than the site's cutoff, the
// start of the UTC day `retention_months` calendar months back. Files wholly before it are dropped as they
// are; files across it are rewritten without the older rows. A visit goes with all its events: one that
// started before the cutoff and ran past it goes whole. Profiles last seen before the cutoff go (those that
// stay keep their lifetime totals), and so do the registries' older rows. Everything in one transaction,
// published to the manifest in one step: queries see the store before or after, never a half-deleted month.
import { rmSync } from 'node:fs';
import type { Database } from './database.ts';
import { sqlPath, type ParquetFile, type ParquetManifest } from './parquet-layout.ts';
import { unregister, writePartition } from './parquet-writer.ts';
import { pausePoint } from './pause-point.ts';
import { dropSlotsBefore, subtractEvents } from './registries.ts';
import { frag } from './sql.ts';

let seq = 0;

/** The cutoff for `months` back from `now`: midnight UTC of the same day of month, clamped to the month's length. */
export function retentionCutoff(now: number, months: number): Date {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last)));
}

/** DuckDB's text form of a timestamp: how parquet_files' min_ts/max_ts compare (as text, in time order). */
const dbTs = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

const siteFiles = (manifest: ParquetManifest, tbl: 'events' | 'visits', siteId: string) =>
  manifest.months(tbl, siteId).flatMap((m) => manifest.all(tbl, siteId, m));

export type RetentionResult = { sites: number; dropped: number; rewritten: number };

/**
 * Enforces every site's retention; `retire` takes the replaced files once the transaction has committed
 * (they leave the manifest now, the disk after a grace period). Run behind the other analytics writes.
 */
export async function enforceRetention(db: Database, manifest: ParquetManifest, now: number, retire: (files: ParquetFile[]) => void): Promise<RetentionResult> {
  const sites = await db.query<{ id: string; months: number }>('SELECT id::VARCHAR AS id, retention_months AS months FROM sites WHERE retention_months IS NOT NULL');
  const out: RetentionResult = { sites: 0, dropped: 0, rewritten: 0 };
  for (const s of sites) {
    const cutoff = dbTs(retentionCutoff(now, s.months));
    const events = siteFiles(manifest, 'events', s.id);
    const visits = siteFiles(manifest, 'visits', s.id);
    const hot = await db.one<{ n: number }>('SELECT count(*) AS n FROM visits WHERE site_id = ? AND start_ts < ?::TIMESTAMP', [s.id, cutoff]);
    if (!hot!.n && ![...events, ...visits].some((f) => f.min_ts < cutoff)) continue;
    const r = await enforceSite(db, manifest, s.id, cutoff, events, visits, retire);
    out.sites++;
    out.dropped += r.dropped;
    out.rewritten += r.rewritten;
  }
  return out;
}

async function enforceSite(db: Database, manifest: ParquetManifest, siteId: string, cutoff: string,
  events: ParquetFile[], visits: ParquetFile[], retire: (files: ParquetFile[]) => void) {
  const doomed = `retention_doomed_${++seq}`;
  const abs = (fs: ParquetFile[]) => fs.map((f) => sqlPath(manifest.abs(f.path))).join(', ');
  const across = (fs: ParquetFile[], from: string) => fs.filter((f) => f.min_ts < from && f.max_ts >= cutoff);
  const written: ParquetFile[] = [];
  const gone: ParquetFile[] = [];
  let rewritten = 0;
  try {
    await db.transaction(async (tx) => {
      // Visits that started before the cutoff and ran past it: their later events go too.
      const visitsAcross = across(visits, cutoff);
      await tx.exec(`CREATE TEMP TABLE ${doomed} AS SELECT visit_id, end_ts FROM (
          ${visitsAcross.length ? `SELECT visit_id, start_ts, end_ts FROM read_parquet([${abs(visitsAcross)}], hive_partitioning = false) UNION ALL ` : ''}
          SELECT visit_id, start_ts, end_ts FROM visits WHERE site_id = '${siteId}')
        WHERE start_ts < '${cutoff}'::TIMESTAMP AND end_ts >= '${cutoff}'::TIMESTAMP`);
      const [{ until }] = await tx.query<{ until: string }>(
        `SELECT coalesce(max(end_ts), '${cutoff}'::TIMESTAMP)::VARCHAR AS until FROM ${doomed}`);
      const keepEvent = `ts >= '${cutoff}'::TIMESTAMP AND visit_id NOT IN (SELECT visit_id FROM ${doomed})`;
      const keepVisit = `start_ts >= '${cutoff}'::TIMESTAMP`;
      // Events of visits that ran past the cutoff may sit in files after it, up to the latest such visit's end.
      const plan = [
        { tbl: 'events' as const, col: 'ts', keep: keepEvent, files: events, edge: across(events, until > cutoff ? `${until}~` : cutoff) },
        { tbl: 'visits' as const, col: 'start_ts', keep: keepVisit, files: visits, edge: visitsAcross },
      ];
      // Slot registries lose the deleted events: whole slots before the cutoff, and the later events of doomed visits.
      const evEdge = plan[0]!.edge;
      if (evEdge.length) {
        await subtractEvents(tx, frag(`(SELECT * FROM read_parquet([${abs(evEdge)}], hive_partitioning = false) WHERE ts >= '${cutoff}'::TIMESTAMP AND NOT (${keepEvent}))`));
      }
      await dropSlotsBefore(tx, siteId, cutoff);
      await tx.exec(`DELETE FROM purchases WHERE site_id = ? AND (ts < ?::TIMESTAMP OR visit_id IN (SELECT visit_id FROM ${doomed}))`, [siteId, cutoff]);
      for (const p of plan) {
        const edge = new Set(p.edge.map((f) => f.path));
        gone.push(...p.files.filter((f) => f.max_ts < cutoff));
        for (const f of p.files.filter((x) => edge.has(x.path))) {
          const read = `SELECT * FROM read_parquet(${sqlPath(manifest.abs(f.path))}, hive_partitioning = false) WHERE ${p.keep}`;
          const [st] = await tx.query<{ rows: number; min_ts: string | null; max_ts: string | null }>(
            `SELECT count(*) AS rows, min(${p.col})::VARCHAR AS min_ts, max(${p.col})::VARCHAR AS max_ts FROM (${read})`);
          gone.push(f);
          rewritten++;
          if (st!.rows) await writePartition(tx, manifest, written, p.tbl, siteId, f.month, read, { rows: st!.rows, min_ts: st!.min_ts!, max_ts: st!.max_ts! }, { presorted: true });
        }
      }
      await unregister(tx, gone.map((f) => f.path));
      await tx.exec(`DELETE FROM visits WHERE site_id = ? AND (start_ts < ?::TIMESTAMP OR visit_id IN (SELECT visit_id FROM ${doomed}))`, [siteId, cutoff]);
      await tx.exec('DELETE FROM visitor_history WHERE site_id = ? AND last_seen < ?::TIMESTAMP', [siteId, cutoff]);
      // A profile seen only before the cutoff has nothing left; one known only from /identify (never seen) stays.
      await tx.exec('DELETE FROM visitors WHERE site_id = ? AND last_seen_at < ?::TIMESTAMP', [siteId, cutoff]);
      await tx.exec(`INSERT INTO retention_floors VALUES (?, greatest(?::TIMESTAMP, ?::TIMESTAMP + INTERVAL 1 MILLISECOND))
        ON CONFLICT (site_id) DO UPDATE SET floor = greatest(retention_floors.floor, EXCLUDED.floor)`, [siteId, cutoff, until]);
      await tx.exec(`DROP TABLE ${doomed}`);
      await pausePoint('retention:after-write');
    }, () => {
      // Published with the commit, in one synchronous step: no query plans against both the old and the new files.
      for (const f of written) manifest.add(f);
      retire(gone);
    });
  } catch (e) {
    await db.exec(`DROP TABLE IF EXISTS ${doomed}`).catch(() => {});
    for (const f of written) rmSync(manifest.abs(f.path), { force: true });
    throw e;
  }
  await pausePoint('retention:after-commit');
  return { dropped: gone.length - rewritten, rewritten };
}


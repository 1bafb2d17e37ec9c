// The storage module: starts and stops compaction, and drops a deleted site's stored analytics (its rows
// of the analytics tables, its Parquet files). Started first and stopped last, around every feature.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Database, Tx } from './database.ts';
import type { Serial } from './serial.ts';
import { parquetRoot, type ParquetManifest } from './parquet-layout.ts';
import { Compactor, type CompactionResult } from './compaction.ts';
import { deleteHotEvents } from './hot-events.ts';
import type { ObjectStoreOptions } from './object-store.ts';
import type { ObjectMirror } from './object-mirror.ts';
import type { ClickHouseMirror } from './clickhouse/mirror.ts';

/** Tables whose rows belong to one site and go when the site goes (the Parquet files' registry included; hot events apart). */
const SITE_OWNED_TABLES = ['visits', 'visitors', 'purchases', 'event_counts', 'prop_key_counts', 'prop_values', 'visitor_history', 'marks_stale', 'value_marks_pending', 'parquet_files', 'file_engagement', 'retention_floors'];

/** A server module (src/module.ts's shape, spelled out here: storage imports nothing above it). */
export type StorageModule = {
  name: 'storage';
  start(): Promise<void>;
  stop(): Promise<void>;
  dropSite(tx: Tx, siteId: string): Promise<() => void>;
  /** Compaction skips its scheduled runs while `busy()` holds (e.g. the loader is behind: a visit must not be split). */
  holdCompactionWhile(busy: () => boolean): void;
  /** Compacts now (after an import: only once enough hot events wait), queued with the other analytics writers. */
  compact(opts?: { afterImport?: boolean; now?: number }): Promise<CompactionResult>;
};

/** `objectStorage` (config STORAGE_URL): every registered file is mirrored there (storage/object-mirror.ts). */
/** `clickhouse` (config CLICKHOUSE_URL): every registered file is loaded into ClickHouse (storage/clickhouse/mirror.ts). */
/** `hotFlushRows`: tests only (config TERN_TEST_HOT_FLUSH_ROWS), the hot events an import's compaction flushes at. */
/** `compaction`: tests only (TERN_TEST_COMPACTION_MS, TERN_TEST_HOLD_MAX_VISITS), shorter rounds and hold-back limits. */
export function storageModule(db: Database, parquet: ParquetManifest, analyticsWrites: Serial, objectStorage?: ObjectStoreOptions & { deleteGraceMs: number },
  clickhouse?: ClickHouseMirror, hotFlushRows?: number, compaction: { intervalMs?: number; holdMaxVisits?: number } = {}): StorageModule {
  const holds: (() => boolean)[] = [];
  const ms = compaction.intervalMs;
  const hold = { ...(ms ? { quietMs: 2 * ms, maxMs: 10 * ms } : {}), ...(compaction.holdMaxVisits ? { maxVisits: compaction.holdMaxVisits } : {}) };
  const compactor = new Compactor(db, parquet, analyticsWrites, { canRun: () => !holds.some((busy) => busy()), hotFlushRows, intervalMs: ms, hold });
  let mirror: ObjectMirror | undefined;
  return {
    name: 'storage',
    async start() {
      compactor.start();
      if (objectStorage) {
        // Loaded only when configured: without STORAGE_URL no S3 code is imported.
        const [{ ObjectMirror }, { ObjectStore }] = await Promise.all([import('./object-mirror.ts'), import('./object-store.ts')]);
        mirror = new ObjectMirror(db, parquet, new ObjectStore(objectStorage), { deleteGraceMs: objectStorage.deleteGraceMs });
        await mirror.start();
      }
      clickhouse?.start();
    },
    async stop() {
      await compactor.stop();
      await mirror?.stop();
      await clickhouse?.stop();
    },
    holdCompactionWhile: (busy) => void holds.push(busy),
    compact: (opts) => compactor.run(opts?.now ?? Date.now(), opts),
    async dropSite(tx, siteId) {
      await deleteHotEvents(tx, siteId);
      for (const t of SITE_OWNED_TABLES) await tx.exec(`DELETE FROM ${t} WHERE site_id = ?`, [siteId]);
      // The files go once the rows that list them are gone for good (their objects with the mirror's next round).
      return () => {
        parquet.dropSite(siteId);
        compactor.forgetSite(siteId);
        // Not under a report of the site still reading them (at once when none is).
        parquet.afterViewsBefore(parquet.mark(), () => {
          for (const tbl of ['events', 'visits']) rmSync(join(parquetRoot(parquet.dataDir), tbl, `site=${siteId}`), { recursive: true, force: true });
        });
      };
    },
  };
}

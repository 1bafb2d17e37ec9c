// Migration 0013's step: visitor_history gains each visitor's last attribute values (the event's and the
// visit's), and every site's marks are recomputed with attrs_changed, which rewrites its files (old files go as
// orphans at the next start). Hot events are written out first, so they are marked with the rest.
// Migration 0008's step too: marks are computed as today's code does, which needs these columns already.
import type { Tx } from '../database.ts';
import { ParquetManifest } from '../parquet-layout.ts';
import { EVENT_FAMILIES, FAMILIES, maskOf, packedType } from '../attr-marks.ts';
import { flushHotEvents } from '../hot-events.ts';
import { markStoredEvents } from './mark-stored-events.ts';
import { addValueMarkColumns } from '../value-marks.ts';

export async function markAttributeChanges(tx: Tx, dataDir: string) {
  // A row inserted without its bits has every bit set: counted exactly, never wrongly.
  for (const tbl of ['events', 'visits']) {
    await tx.exec(`ALTER TABLE ${tbl} ADD COLUMN IF NOT EXISTS attrs_changed INTEGER`);
    await tx.exec(`ALTER TABLE ${tbl} ALTER COLUMN attrs_changed SET DEFAULT ${maskOf(FAMILIES)}`);
  }
  await tx.exec(`ALTER TABLE visitor_history ADD COLUMN IF NOT EXISTS last_event ${packedType(EVENT_FAMILIES)}`);
  await tx.exec(`ALTER TABLE visitor_history ADD COLUMN IF NOT EXISTS visit_attrs ${packedType(FAMILIES)}`);
  // And the marks per value of migration 0016, which today's recompute writes too.
  await addValueMarkColumns(tx);
  await flushHotEvents(tx, new ParquetManifest(dataDir), []);
  await markStoredEvents(tx, dataDir);
}

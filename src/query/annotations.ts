// Chart annotations in a date range (the annotations table belongs to the annotations feature, migration 0003).
import type { Database } from '../storage/database.ts';

export type ChartAnnotation = { id: string; date: string; text: string };

export async function annotationsIn(db: Database, siteId: string, from: string, to: string): Promise<ChartAnnotation[]> {
  return db.query<ChartAnnotation>(
    `SELECT id::VARCHAR AS id, strftime(date, '%Y-%m-%d') AS date, text FROM annotations
     WHERE site_id = ? AND date BETWEEN ?::DATE AND ?::DATE ORDER BY date, created_at`,
    [siteId, from, to],
  );
}

// Annotations of a site: list by date range, create, delete. Dates are the site's calendar dates.
import { uuidOrNull, type MetaDb, type MetaTx } from '../storage/meta-db.ts';
import { badRequest, notFound } from '../http/errors.ts';
import type { Annotation } from './model.ts';

const COLUMNS = `id::VARCHAR AS id, date::VARCHAR AS date, text, created_at`;

/** Oldest date first, as they sit along a chart; from/to are inclusive and each optional. */
export async function listAnnotations(db: MetaDb, siteId: string, range: { from?: string; to?: string } = {}): Promise<Annotation[]> {
  if (range.from && range.to && range.from > range.to) throw badRequest(`Invalid query: 'from' is after 'to'`);
  return db.query<Annotation>(
    `SELECT ${COLUMNS} FROM annotations
     WHERE site_id = ? AND (?::DATE IS NULL OR date >= ?::DATE) AND (?::DATE IS NULL OR date <= ?::DATE)
     ORDER BY date, created_at, id`,
    [siteId, range.from ?? null, range.from ?? null, range.to ?? null, range.to ?? null],
  );
}

export async function createAnnotation(db: MetaDb, siteId: string, input: { date: string; text: string }): Promise<Annotation> {
  const id = crypto.randomUUID();
  await db.exec(`INSERT INTO annotations VALUES (?, ?, ?::DATE, ?, now()::TIMESTAMP)`, [id, siteId, input.date, input.text]);
  return (await db.one<Annotation>(`SELECT ${COLUMNS} FROM annotations WHERE id = ?::UUID`, [id]))!;
}

export async function deleteAnnotation(db: MetaDb, siteId: string, annotationId: string) {
  const hit = await db.query(`DELETE FROM annotations WHERE site_id = ? AND id = ?::UUID RETURNING id`, [siteId, uuidOrNull(annotationId)]);
  if (hit.length === 0) throw notFound('Annotation not found');
  return { id: annotationId };
}

/** This feature's share of a site's deletion, in its transaction. */
export async function deleteSiteAnnotations(tx: MetaTx, siteId: string) {
  await tx.exec(`DELETE FROM annotations WHERE site_id = ?`, [siteId]);
}

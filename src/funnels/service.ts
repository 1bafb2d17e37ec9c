// Funnels of a site: list, create, update, delete. Goal steps must name a goal of the same site.
import { uuidOrNull, type MetaDb, type MetaTx } from '../storage/meta-db.ts';
import { badRequest, notFound } from '../http/errors.ts';
import type { CreateFunnel, Funnel, FunnelStep, PatchFunnel } from './model.ts';
import { goalsByIds } from '../goals/service.ts';

const COLUMNS = `id::VARCHAR AS id, name, steps::VARCHAR AS steps, conversion_window AS "window", created_at`;

const shape = (row: Record<string, any>): Funnel => ({ ...row, steps: JSON.parse(row.steps) }) as Funnel;

async function checkGoalSteps(db: MetaDb, siteId: string, steps: FunnelStep[]) {
  const ids = steps.filter((s) => s.type === 'goal').map((s) => s.value);
  if (ids.length === 0) return;
  // Exactly as stored (lowercase): a step's goal id is looked up by that text when the funnel is analysed.
  const found = new Set((await goalsByIds(db, siteId, ids)).map((g) => g.id));
  steps.forEach((s, i) => {
    if (s.type === 'goal' && !found.has(s.value)) throw badRequest(`Invalid body field 'steps.${i}.value': no goal with this id in the site`);
  });
}

export async function listFunnels(db: MetaDb, siteId: string): Promise<Funnel[]> {
  return (await db.query(`SELECT ${COLUMNS} FROM funnels WHERE site_id = ? ORDER BY created_at, id`, [siteId])).map(shape);
}

export async function getFunnel(db: MetaDb, siteId: string, funnelId: string): Promise<Funnel> {
  const row = await db.one(`SELECT ${COLUMNS} FROM funnels WHERE site_id = ? AND id = ?::UUID`, [siteId, uuidOrNull(funnelId)]);
  if (!row) throw notFound('Funnel not found');
  return shape(row);
}

export async function createFunnel(db: MetaDb, siteId: string, input: CreateFunnel): Promise<Funnel> {
  await checkGoalSteps(db, siteId, input.steps);
  const [row] = await db.query(`INSERT INTO funnels VALUES (?, ?, ?, ?::JSON, ?, now()::TIMESTAMP) RETURNING ${COLUMNS}`,
    [crypto.randomUUID(), siteId, input.name, JSON.stringify(input.steps), input.window]);
  return shape(row!);
}

export async function updateFunnel(db: MetaDb, siteId: string, funnelId: string, input: PatchFunnel): Promise<Funnel> {
  const funnel = await getFunnel(db, siteId, funnelId);
  if (input.steps) await checkGoalSteps(db, siteId, input.steps);
  // Only the fields sent are written (see updateGoal): two PATCHes at once must not undo each other.
  const [row] = await db.query(
    `UPDATE funnels SET name = coalesce(?, name), steps = coalesce(?::JSON, steps), conversion_window = coalesce(?, conversion_window)
     WHERE id = ?::UUID RETURNING ${COLUMNS}`,
    [input.name ?? null, input.steps ? JSON.stringify(input.steps) : null, input.window ?? null, funnel.id],
  );
  return shape(row!);
}

export async function deleteFunnel(db: MetaDb, siteId: string, funnelId: string) {
  const [row] = await db.query(`DELETE FROM funnels WHERE site_id = ? AND id = ?::UUID RETURNING id::VARCHAR AS id`, [siteId, uuidOrNull(funnelId)]);
  if (!row) throw notFound('Funnel not found');
  return { id: row.id as string };
}

/** This feature's share of a site's deletion, in its transaction. */
export async function deleteSiteFunnels(tx: MetaTx, siteId: string) {
  await tx.exec(`DELETE FROM funnels WHERE site_id = ?`, [siteId]);
}

// Goals of a site: list, create, update, archive/unarchive; rows shaped as the API shows them.
import { uuidOrNull, type MetaDb, type MetaTx } from '../storage/meta-db.ts';
import { badRequest, notFound } from '../http/errors.ts';
import type { CreateGoal, Goal, PatchGoal } from './model.ts';

const COLUMNS = `id::VARCHAR AS id, name, type, path, event_name, value, archived, created_at`;

/** Absent optional fields are left out rather than sent as null (contract: `path?`, `event_name?`, `value?`). */
function shape(row: Record<string, any>): Goal {
  const goal: Record<string, any> = {};
  for (const [k, v] of Object.entries(row)) if (v !== null) goal[k] = v;
  return goal as Goal;
}

export async function listGoals(db: MetaDb, siteId: string, includeArchived = false): Promise<Goal[]> {
  const rows = await db.query(
    `SELECT ${COLUMNS} FROM goals WHERE site_id = ? AND (? OR NOT archived) ORDER BY created_at, id`,
    [siteId, includeArchived],
  );
  return rows.map(shape);
}

/** The site's goals among `ids` (UUIDs in any case; an id that is no goal of the site is left out). */
export async function goalsByIds(db: MetaDb, siteId: string, ids: string[]): Promise<Goal[]> {
  const rows = await db.query(
    `SELECT ${COLUMNS} FROM goals WHERE site_id = ? AND id = ANY(?::UUID[])`,
    [siteId, ids.map(uuidOrNull).filter((id): id is string => id !== null)],
  );
  return rows.map(shape);
}

export async function getGoal(db: MetaDb, siteId: string, goalId: string): Promise<Goal> {
  const row = await db.one(`SELECT ${COLUMNS} FROM goals WHERE site_id = ? AND id = ?::UUID`, [siteId, uuidOrNull(goalId)]);
  if (!row) throw notFound('Goal not found');
  return shape(row);
}

export async function createGoal(db: MetaDb, siteId: string, input: CreateGoal): Promise<Goal> {
  const [row] = await db.query(
    `INSERT INTO goals (id, site_id, name, type, path, event_name, value, archived, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, false, now()::TIMESTAMP) RETURNING ${COLUMNS}`,
    [crypto.randomUUID(), siteId, input.name, input.type, input.path ?? null, input.event_name ?? null, input.value ?? null],
  );
  return shape(row!);
}

export async function updateGoal(db: MetaDb, siteId: string, goalId: string, input: PatchGoal): Promise<Goal> {
  const goal = await getGoal(db, siteId, goalId);
  if (input.path !== undefined && goal.type !== 'pageview') throw badRequest(`Invalid body field 'path': is only allowed on a pageview goal`);
  if (input.event_name !== undefined && goal.type !== 'event') throw badRequest(`Invalid body field 'event_name': is only allowed on an event goal`);
  // Only the fields sent are written, in the statement itself: written from the goal read above, two PATCHes
  // of different fields at once would each put back the other's old value.
  const [row] = await db.query(
    `UPDATE goals SET name = coalesce(?, name), path = coalesce(?, path), event_name = coalesce(?, event_name),
       value = CASE WHEN ? THEN ? ELSE value END
     WHERE id = ?::UUID RETURNING ${COLUMNS}`,
    [input.name ?? null, input.path ?? null, input.event_name ?? null, input.value !== undefined, input.value ?? null, goal.id]);
  return shape(row!);
}

export async function setArchived(db: MetaDb, siteId: string, goalId: string, archived: boolean): Promise<Goal> {
  const [row] = await db.query(`UPDATE goals SET archived = ? WHERE site_id = ? AND id = ?::UUID RETURNING ${COLUMNS}`, [archived, siteId, uuidOrNull(goalId)]);
  if (!row) throw notFound('Goal not found');
  return shape(row);
}

/** This feature's share of a site's deletion, in its transaction. */
export async function deleteSiteGoals(tx: MetaTx, siteId: string) {
  await tx.exec(`DELETE FROM goals WHERE site_id = ?`, [siteId]);
}

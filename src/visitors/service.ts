// Visitors: the profile list and one visitor's timeline, with goal totals against the current goals.
import type { Database } from '../storage/database.ts';
import { engineOf, type QuerySources } from '../query/parse/common-query.ts';
import { notFound } from '../http/errors.ts';
import { listGoals } from '../goals/service.ts';
import { goalMatch } from '../query/sql/goals-match.ts';
import { listVisitors, visitorEvents, visitorProfile } from '../query/reports/visitors.ts';
import type { Page } from '../http/page-query.ts';
import type { TimelineEvent, Visitor } from './model.ts';

/** Identity fields are present only when set (spec §2.4); the 53-bit internal id stays internal. */
function shape({ visitor_id: _internal, total: _total, custom, email, name, avatar_url, external_id, ...rest }: Record<string, any>): Visitor {
  const v: Record<string, any> = { id: rest.id, uid: rest.uid };
  for (const [k, val] of Object.entries({ email, name, avatar_url, external_id })) if (val != null) v[k] = val;
  if (custom != null) v.custom = JSON.parse(custom);
  return { ...v, ...rest, total_revenue: Math.round((rest.total_revenue ?? 0) * 100) / 100 } as Visitor;
}

/** Active goals only: archiving a goal takes it out of every report, visitor totals included. */
const activeGoals = async (src: QuerySources, siteId: string) => (await listGoals(src.meta, siteId)).map(goalMatch);

/** A 404 unless `visitorId` names a visitor profile of the site. */
export async function assertVisitorExists(db: Database, siteId: string, visitorId: string): Promise<void> {
  const hit = await db.one(`SELECT 1 AS ok FROM visitors WHERE site_id = ? AND id = TRY_CAST(? AS UUID)`, [siteId, visitorId]);
  if (!hit) throw notFound('Visitor not found');
}

export async function visitorList(src: QuerySources, siteId: string, q: Page & { search?: string }) {
  // An empty search (?search=) lists everyone.
  const { rows, total } = await listVisitors(src.db, engineOf(src), src.files, siteId, await activeGoals(src, siteId), q, q.search || undefined);
  return { visitors: rows.map(shape), pagination: { total, page: q.page, limit: q.limit } };
}

export async function visitorTimeline(src: QuerySources, siteId: string, visitorId: string, q: Page) {
  const profile = await visitorProfile(src.db, engineOf(src), src.files, siteId, visitorId, await activeGoals(src, siteId));
  if (!profile) throw notFound('Visitor not found');
  const { rows, total } = await visitorEvents(engineOf(src), src.files, siteId, profile.visitor_id, q);
  return {
    visitor: shape(profile),
    events: rows.map(({ total: _t, properties, ...e }) => ({ ...e, properties: properties ? JSON.parse(properties) : {} }) as TimelineEvent),
    pagination: { total, page: q.page, limit: q.limit },
  };
}

// Visitor erasure (right to be forgotten): resolves who is meant (profile id, external_id or uid) and erases
// each match behind the other analytics writes, so no load can interleave (storage/erase-visitor.ts).
import type { AppContext } from '../app-context.ts';
import { badRequest, forbidden, notFound } from '../http/errors.ts';
import { uidVisitorId } from '../ingest/hash.ts';
import { scrubFailedSegments } from '../ingest/log-scrub.ts';
import { eraseVisitor, type ErasureCounts, type Graveyard } from '../storage/erase-visitor.ts';

/** Roles allowed to erase: deleting data is an administrative act, like deleting a site. */
const ERASERS = new Set(['owner', 'admin']);

export type ErasedVisitor = { id: string } & ErasureCounts;
type Target = { id: string; visitor_id: number };

export function assertMayErase(role: string | null) {
  if (!role || !ERASERS.has(role)) throw forbidden('Only an owner or admin of the organization can erase visitors');
}

/** The internal id of a profile UUID; undefined when the site has no such profile. */
async function byProfileId(ctx: AppContext, siteId: string, id: string): Promise<Target | undefined> {
  return ctx.db.one<Target>('SELECT id::VARCHAR AS id, visitor_id FROM visitors WHERE site_id = ? AND id = TRY_CAST(? AS UUID)', [siteId, id]);
}

/**
 * Events of a uid are stored under a hash of it, so a uid is erased even without a profile (its events may
 * all still be in the ingest log); its profile id is the same md5 the loader gives profiles.
 */
async function targets(ctx: AppContext, siteId: string, q: { external_id?: string; uid?: string }): Promise<Target[]> {
  if ((q.external_id === undefined) === (q.uid === undefined)) throw badRequest('Give exactly one of external_id or uid');
  if (q.uid !== undefined) {
    const visitorId = uidVisitorId(siteId, q.uid);
    const row = await ctx.db.one<{ id: string }>(`SELECT md5(?::VARCHAR || ':' || ?::BIGINT)::UUID::VARCHAR AS id`, [siteId, visitorId]);
    return [{ id: row!.id, visitor_id: visitorId }];
  }
  const found = await ctx.db.query<Target>('SELECT id::VARCHAR AS id, visitor_id FROM visitors WHERE site_id = ? AND external_id = ? ORDER BY id', [siteId, q.external_id!]);
  if (!found.length) throw notFound('No visitor with this external_id');
  return found;
}

async function erase(ctx: AppContext, graveyard: Graveyard, siteId: string, userId: string, t: Target): Promise<ErasedVisitor> {
  // The erasure's time is taken in the analytics queue: every event accepted before it is either loaded
  // already (and rewritten away here) or still in the log with an earlier ts (and dropped when it loads).
  // Segments set aside as failed are never loaded, so the tombstone does not reach them: scrubbed here.
  const counts = await ctx.analyticsWrites.run(async () => {
    const out = await eraseVisitor(ctx.db, ctx.parquet, {
      id: crypto.randomUUID(), siteId, visitor: t.id, visitorId: t.visitor_id, erasedAtMs: Date.now(), erasedBy: userId,
    }, (paths) => graveyard.add(paths, ctx.parquet));
    await scrubFailedSegments(ctx.config.dataDir, siteId, t.visitor_id);
    return out;
  });
  return { id: t.id, ...counts };
}

export async function eraseById(ctx: AppContext, graveyard: Graveyard, siteId: string, userId: string, id: string): Promise<ErasedVisitor> {
  const t = await byProfileId(ctx, siteId, id);
  if (!t) throw notFound('Visitor not found');
  return erase(ctx, graveyard, siteId, userId, t);
}

/** By account: every profile with the external_id (normally one), or the uid's visitor; counts are summed. */
export async function eraseByAccount(ctx: AppContext, graveyard: Graveyard, siteId: string, userId: string, q: { external_id?: string; uid?: string }) {
  const done: ErasedVisitor[] = [];
  for (const t of await targets(ctx, siteId, q)) done.push(await erase(ctx, graveyard, siteId, userId, t));
  return {
    id: done[0]!.id,
    events_deleted: done.reduce((n, d) => n + d.events_deleted, 0),
    visits_deleted: done.reduce((n, d) => n + d.visits_deleted, 0),
    visitors: done,
  };
}

// Visitor IDs of imported events. A visitor ID from the source tool identifies the visitor for good; without
// one, the visitor is the same daily-salted fingerprint of site, IP and user agent as a live visitor: the
// live salt of the event's UTC day while it is kept (today, yesterday), so recent imports meet live visitors;
// for older days, the site's import secret with the day, so every request of one history agrees.
import type { Database } from '../storage/database.ts';
import type { Serial } from '../storage/serial.ts';
import { randomHex } from '../security/tokens.ts';
import { createHmac } from 'node:crypto';
import { anonVisitorId, uidVisitorId } from './hash.ts';
import { dayOf } from './salts.ts';

export type LiveSalt = (ms: number) => string | undefined;

/** The site's import secret, created on its first import. */
export async function importSecret(db: Database, serial: Serial, siteId: string): Promise<string> {
  const read = async () => (await db.query<{ secret: string }>('SELECT secret FROM import_keys WHERE site_id = ?', [siteId]))[0]?.secret;
  return (await read()) ?? serial.run(async () => {
    await db.exec('INSERT INTO import_keys VALUES (?, ?) ON CONFLICT DO NOTHING', [siteId, randomHex(16)]);
    return (await read())!;
  });
}

export function importVisitors(siteId: string, secret: string, liveSalt: LiveSalt = () => undefined) {
  const saltOf = new Map<string, string>();
  const salt = (ms: number) => {
    const live = liveSalt(ms);
    if (live) return live;
    const day = dayOf(ms);
    let s = saltOf.get(day);
    if (s === undefined) saltOf.set(day, (s = createHmac('sha256', secret).update(day).digest('hex').slice(0, 32)));
    return s;
  };
  return (e: { visitor_uid: string | null; ip: string | null; user_agent: string | null; timestamp: number }) =>
    e.visitor_uid ? uidVisitorId(siteId, e.visitor_uid) : anonVisitorId(salt(e.timestamp), siteId, e.ip ?? '', e.user_agent ?? '');
}

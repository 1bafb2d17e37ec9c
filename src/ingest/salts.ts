// Daily salts for anonymous visitor IDs: created per UTC day, kept for today and yesterday, older ones forgotten.
import type { Database } from '../storage/database.ts';
import { randomHex } from '../security/tokens.ts';
import { log } from '../log.ts';

const DAY_MS = 86_400_000;
/** The UTC day (YYYY-MM-DD) a salt belongs to. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class Salts {
  private byDay = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private db: Database) {}

  async start() {
    await this.rotate();
    this.timer = setInterval(() => void this.rotate().catch((e) => log.error('salt rotation failed', { error: String(e) })), 60_000);
  }

  stop() { if (this.timer) clearInterval(this.timer); }

  /** Ensures today's and tomorrow's salts exist (so midnight needs no write on the hot path) and drops the rest. */
  private async rotate() {
    const now = Date.now();
    const keep = [dayOf(now - DAY_MS), dayOf(now), dayOf(now + DAY_MS)];
    for (const day of keep.slice(1)) {
      await this.db.exec('INSERT INTO ingest_salts VALUES (?, ?) ON CONFLICT DO NOTHING', [day, randomHex(16)]);
    }
    await this.db.exec('DELETE FROM ingest_salts WHERE day <> ALL(?::VARCHAR[])', [keep]);
    const rows = await this.db.query<{ day: string; salt: string }>('SELECT day, salt FROM ingest_salts');
    this.byDay = new Map(rows.map((r) => [r.day, r.salt]));
  }

  /** The salt of the UTC day of `ms`; a day we never stored (clock jump) gets one in memory for now. */
  forTime(ms: number): string {
    const day = dayOf(ms);
    let s = this.byDay.get(day);
    if (!s) {
      s = randomHex(16);
      this.byDay.set(day, s);
      void this.db.exec('INSERT INTO ingest_salts VALUES (?, ?) ON CONFLICT DO NOTHING', [day, s]).catch(() => {});
    }
    return s;
  }

  /** The stored salt of the UTC day of `ms`, if that day's is still kept (never creates one). */
  kept(ms: number): string | undefined {
    return this.byDay.get(dayOf(ms));
  }

  /** Yesterday's salt, to keep a visit that spans midnight together. */
  previous(ms: number): string | undefined {
    return this.byDay.get(dayOf(ms - DAY_MS));
  }
}

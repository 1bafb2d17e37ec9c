// The ingestion service: live events (validate → visitor → visit → durable log) and /identify,
// with the log writer, loader, sessionizer and salts it owns from start to drain.
import { join } from 'node:path';
import type { Site } from '../sites/model.ts';
import { ApiError } from '../http/errors.ts';
import { log } from '../log.ts';
import { agentOf } from './enrich/agent.ts';
import { anonVisitorId, uidVisitorId } from './hash.ts';
import { Loader } from './loader.ts';
import { LogWriter } from './log-writer.ts';
import { liveRow, type Origin } from './record.ts';
import { toLine } from './log-format.ts';
import { importEvents, type ImportOptions, type ImportResult } from './import.ts';
import type { ImportFormatName } from './import-formats/index.ts';
import { ImportRequests } from './import-idempotency.ts';
import { ImportOrder } from './import-order.ts';
import { Salts } from './salts.ts';
import type { Serial } from '../storage/serial.ts';
import { Sessionizer } from './sessionizer.ts';
import type { StorageModule } from '../storage/module.ts';
import type { ParquetManifest } from '../storage/parquet-layout.ts';
import type { Database } from '../storage/database.ts';
import type { SiteCache } from '../sites/site-cache.ts';
import type { EventInput, IdentifyInput } from './validate.ts';

/** Ingestion answers CORS for any origin on every response, errors included (contract §6). */
export const CORS_HEADERS: Record<string, string> = { 'access-control-allow-origin': '*' };
export const ingestError = (status: number, message: string) => new ApiError(status, message, { ...CORS_HEADERS });

/** The log could not take the event (a full disk, an I/O error, the server stopping): nothing was stored. */
const refused = () =>
  new ApiError(503, 'The event could not be stored (the server cannot write its ingest log); nothing was recorded, retry later', { ...CORS_HEADERS, 'retry-after': '5' });

/** What ingestion uses: the database and Parquet files, the analytics writers' queue, the sites, and where its log lives. */
export type IngestDeps = {
  db: Database; parquet: ParquetManifest; analyticsWrites: Serial; sites: SiteCache; dataDir: string; loadIntervalMs: number;
};

export class IngestService {
  readonly serial: Serial;
  readonly sessionizer = new Sessionizer();
  readonly salts: Salts;
  readonly loader: Loader;
  readonly writer: LogWriter;
  readonly manifest: ParquetManifest;
  private readonly requests: ImportRequests;
  private readonly order = new ImportOrder();

  /** `storage`: compaction, which waits for the loader and runs after an import. */
  constructor(private deps: IngestDeps, private storage: Pick<StorageModule, 'holdCompactionWhile' | 'compact'>, opts: { rotateMs?: number } = {}) {
    this.serial = deps.analyticsWrites;
    this.salts = new Salts(deps.db);
    this.requests = new ImportRequests(deps.db, this.serial);
    this.manifest = deps.parquet;
    this.loader = new Loader(deps.db, this.serial, this.manifest, { intervalMs: deps.loadIntervalMs });
    this.writer = new LogWriter(join(deps.dataDir, 'log'), { rotateMs: opts.rotateMs, onSeal: (p) => this.loader.enqueue(p), refusal: refused });
  }

  /** Replays what an earlier run left in the log, then restores open visits and starts accepting. */
  async start() {
    // Compaction moves visits closed for 35 minutes; queued segments hold only events of the last few seconds,
    // unless the loader falls behind: then it waits, so a visit is never split between a file and a late load.
    this.storage.holdCompactionWhile(() => this.loader.lagMs() >= 60_000);
    const leftovers = this.writer.leftovers();
    await this.loader.replay(leftovers);
    if (leftovers.length) log.info('ingest log replayed', { segments: leftovers.length, events: this.loader.loadedEvents });
    await this.salts.start();
    await this.sessionizer.restore(this.deps.db);
    this.writer.start();
  }

  site(publicId: string): Site {
    const site = this.deps.sites.byPublicId(publicId);
    if (!site) throw ingestError(404, 'Unknown site');
    return site;
  }

  /**
   * Resolves once the event is durable, rejects with a 503 if the log could not take it; a bot's event is
   * dropped without a trace (undefined). Not an async function: the log's promise is the answer, one promise
   * and one resumption fewer per event.
   */
  event(input: EventInput, origin: Origin): Promise<void> | undefined {
    const site = this.site(input.site_id);
    const agent = agentOf(origin.userAgent);
    if (agent.bot) return;
    const now = Date.now();
    const visitorId = input.visitor_uid ? uidVisitorId(site.id, input.visitor_uid) : this.anonVisitor(site.id, origin, now);
    return this.writer.append(toLine(liveRow(this.sessionizer, site, input, origin, agent, visitorId, now)));
  }

  /** Today's fingerprint, unless yesterday's still has an open visit (a visit spanning midnight). */
  private anonVisitor(siteId: string, o: Origin, now: number): number {
    const today = anonVisitorId(this.salts.forTime(now), siteId, o.ip, o.userAgent);
    if (this.sessionizer.isOpen(today, now)) return today;
    const prev = this.salts.previous(now);
    if (prev) {
      const y = anonVisitorId(prev, siteId, o.ip, o.userAgent);
      if (this.sessionizer.isOpen(y, now)) return y;
    }
    return today;
  }

  /** Attaches identity fields to the visitor of visitor_uid, creating it; absent fields keep their value. */
  async identify(input: IdentifyInput): Promise<void> {
    const site = this.site(input.site_id);
    const visitorId = uidVisitorId(site.id, input.visitor_uid);
    const keep = (col: string) => `${col} = coalesce(EXCLUDED.${col}, visitors.${col})`;
    // Behind the loader like every analytics write: run beside a load (or an import) of the same visitor,
    // DuckDB would abort whichever committed second, and an import has no retry. The price: an identify
    // during a long import waits for it.
    await this.serial.run(() =>
      this.deps.db.exec(
        `INSERT INTO visitors (id, site_id, visitor_id, uid, external_id, name, email, avatar_url, custom)
         VALUES (md5(?::VARCHAR || ':' || ?::BIGINT)::UUID, ?, ?::BIGINT, ?, ?, ?, ?, ?, ?::JSON)
         ON CONFLICT (site_id, visitor_id) DO UPDATE SET
           uid = EXCLUDED.uid, ${['external_id', 'name', 'email', 'avatar_url'].map(keep).join(', ')},
           custom = CASE WHEN EXCLUDED.custom IS NULL THEN visitors.custom
                         ELSE json_merge_patch(coalesce(visitors.custom, '{}'::JSON), EXCLUDED.custom) END`,
        [site.id, visitorId, site.id, visitorId, input.visitor_uid, input.user_id, input.name, input.email, input.avatar,
          input.custom ? JSON.stringify(input.custom) : null],
      ),
    );
  }

  /**
   * Bulk import in `format`; with an idempotency key, a retry answers the first result. A large import's events
   * wait in the hot events table, and compaction runs once a million wait; a small one's go to Parquet at once,
   * and compaction moves the closed visits it created to Parquet right away.
   */
  async import(site: Site, body: ReadableStream<Uint8Array> | null, onBodyRead: (() => void) | undefined,
    opts: { format?: ImportFormatName; key?: string | null } = {}): Promise<{ result: ImportResult; replayed: boolean }> {
    let hot = false;
    const turn = this.order.arrive(site.id);
    const run = (record?: ImportOptions['record']) =>
      importEvents(this.deps.db, this.serial, this.manifest, site, body, onBodyRead, { format: opts.format, liveSalt: (ms) => this.salts.kept(ms), record, loadedHot: (h) => { hot = h; }, turn });
    let out: { result: ImportResult; replayed: boolean };
    try {
      out = opts.key ? await this.requests.once(site.id, opts.key, run) : { result: await run(), replayed: false };
    } finally {
      turn.pass();
    }
    if (out.replayed) onBodyRead?.();
    else if (out.result.imported) await this.storage.compact({ afterImport: hot }).catch((e) => log.error('compaction after import failed', { error: String(e) }));
    return out;
  }

  async stop() {
    this.salts.stop();
    this.sessionizer.stop();
    await this.writer.close();
    await this.loader.flush();
  }
}

// What every import format yields per line (or row): an event for the one import path, a line-numbered
// error, or a line skipped on purpose (an asset, a bot, a redirect in an access log; a GA4 bookkeeping event).
import type { Database } from '../../storage/database.ts';
import type { Site } from '../../sites/model.ts';
import type { LogRow } from '../log-format.ts';
import type { ImportInput } from '../validate.ts';

/** Stored columns a format knows better than enrichment can from what it has (GA4's geo.*, Umami's browser). */
export type Known = Partial<Pick<LogRow, 'country' | 'region' | 'city' | 'browser' | 'browser_version' | 'os' | 'os_version' | 'device' | 'screen'>>;

export type ImportItem =
  /** `tags`: utm_* (and click IDs) the source tool recorded apart from the URL, read as if they were in it. */
  | { line: number; event: ImportInput; known?: Known; tags?: Record<string, string> }
  | { line: number; error: string }
  | { line: number; skip: true };

export type FormatContext = { site: Site; db: Database; stagingDir: string; nonce: string };

/** A format: the body (already gunzipped) → items in body order. */
export type ImportFormat = (bytes: AsyncGenerator<Uint8Array>, ctx: FormatContext) => AsyncGenerator<ImportItem>;

// A Parquet export assembled from the stored files instead of re-encoded: each stored file wholly inside the
// range gives its column chunks as they are (renamed to the export's names), beside a small side file of the
// one computed column (the visitor's profile id, written by DuckDB with the same row groups); rows DuckDB must
// still select (the hot table's open visits, files the range cuts) are COPYed into one piece, whose schema is
// the export's. So the bulk of the download moves at disk speed, decoding no row (storage/parquet-splice.ts).
import { open, type FileHandle } from 'node:fs/promises';
import type { AppContext } from '../app-context.ts';
import type { Site } from '../sites/model.ts';
import { openSpliceFile, splice, SpliceMismatch, checkPart, type SpliceFile, type SplicePart } from '../storage/parquet-splice.ts';
import { sqlPath } from '../storage/parquet-layout.ts';
import { log } from '../log.ts';
import { EXPORT_COLUMNS, selectItem } from './columns.ts';
import { selectSql, writePiece, type Window } from './export-pieces.ts';
import type { ExportQuery } from './model.ts';

const AHEAD = 2;
const SIDE_OPTIONS = (rowGroup: number) => `FORMAT parquet, COMPRESSION lz4, ROW_GROUP_SIZE ${rowGroup}`;

/** The bytes of the export and a way to let go of every file it holds open. */
export type ParquetBody = { chunks: AsyncGenerator<Uint8Array>; close: () => Promise<void> };

/**
 * Lists the files the export reads and writes the DuckDB piece from one state (writePiece), then opens every
 * listed file before the first byte leaves; a view of the manifest held until `close` keeps each listed file on
 * disk meanwhile (a merge, retention or an erasure that replaces one deletes it only after), as the side files
 * read them by path.
 */
export async function parquetExport(ctx: AppContext, site: Site, q: ExportQuery, range: Window | undefined): Promise<ParquetBody> {
  const held: FileHandle[] = [];
  const view = ctx.parquet.view();
  const close = async () => {
    for (const fd of held.splice(0)) await fd.close().catch(() => {});
    view.release();
  };
  try {
    let inside: string[] = [];
    const restFd = await writePiece(ctx, (files) => {
      const split = range ? files.split(q.table, site.id, range) : { inside: files.files(q.table, site.id).map((f) => files.rel(f)), edges: [] };
      inside = split.inside;
      return selectSql(site, q, range, split.edges.map((p) => files.abs(p)));
    }, 'parquet', true);
    held.push(restFd);
    const stored: SpliceFile[] = [];
    for (const rel of inside) {
      const fd = await open(ctx.parquet.abs(rel), 'r');
      held.push(fd);
      stored.push(await openSpliceFile(fd));
    }
    const rest = await openSpliceFile(restFd);
    const template = rest.footer;
    const identity = (file: SpliceFile): SplicePart => ({ columns: Object.fromEntries(template.columns.map((c) => [c.name, { file, column: c.name }])) });

    /** A stored file as a part: its own columns, and the visitor id from a side file. */
    const partOf = async (file: SpliceFile, path: string): Promise<SplicePart> => {
      const cols = EXPORT_COLUMNS[q.table];
      const computed = cols.filter((c) => c.kind === 'uuid');
      const maxRows = Math.max(1, ...file.footer.rowGroups.map((g) => Number(g.numRows)));
      const sideFd = await writePiece(ctx, `SELECT ${computed.map((c) => selectItem(c, 'parquet')).join(', ')} FROM read_parquet(${sqlPath(path)}, hive_partitioning = false)`,
        'parquet', true, SIDE_OPTIONS(maxRows));
      held.push(sideFd);
      const side = await openSpliceFile(sideFd);
      const part: SplicePart = { columns: Object.fromEntries(cols.map((c) => [c.name, c.kind === 'uuid' ? { file: side, column: c.name } : { file, column: c.sql }])) };
      try {
        checkPart(template.columns, part);
        return part;
      } catch (e) {
        if (!(e instanceof SpliceMismatch)) throw e;
        // A file of another layout (an older server's) goes through DuckDB like the rest.
        log.info('export: stored file re-encoded instead of copied', { file: path, reason: e.message });
        const fd = await writePiece(ctx, selectSql(site, q, undefined, [path], false), 'parquet', true);
        held.push(fd);
        return identity(await openSpliceFile(fd));
      }
    };

    async function* parts(): AsyncGenerator<SplicePart> {
      // Side files are written AHEAD parts ahead of the one streaming: a one-row-group file keeps one DuckDB
      // thread busy, so two at once use both cores of a small machine.
      const ahead: Promise<SplicePart>[] = [];
      let started = 0;
      const fill = () => {
        while (started < stored.length && ahead.length < AHEAD) {
          const p = partOf(stored[started]!, ctx.parquet.abs(inside[started]!));
          p.catch(() => {});
          ahead.push(p);
          started++;
        }
      };
      fill();
      while (ahead.length) {
        const next = ahead.shift()!;
        fill();
        yield await next;
      }
      yield identity(rest);
    }
    return { chunks: splice(template, parts()), close };
  } catch (e) {
    await close();
    throw e;
  }
}

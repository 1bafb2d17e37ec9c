// The ingest log's segment files: naming, opening (a plain file, or one zero-filled ahead of use while the
// log is busy), sealing, cutting back after a refused write, and cleaning up what a crash left.
import { closeSync, constants, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, truncateSync, openSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { log } from '../log.ts';
import { syncDir } from '../storage/durable-file.ts';

/**
 * An open segment. `capacity`: bytes zero-filled and synced before use (a spare); lines are written over them
 * from offset 0, at `bytes`.
 */
export type Segment = { path: string; fd: FileHandle; bytes: number; capacity: number; openedAt: number };

/**
 * Segments are opened with O_DSYNC where the platform has it: each write returns once its data is on disk,
 * as write + fdatasync would, in one system call handed to the runtime's thread pool instead of two. Every
 * hand-off wakes a pool thread, which on a small machine preempts the event route's thread.
 */
export const DSYNC: number = constants.O_DSYNC ?? 0;

/**
 * While the log is busy, the next segment is created and zero-filled ahead of use: a write over blocks that
 * already hold synced zeros leaves the file's size and extents alone, so its sync writes the data only, not
 * the inode too. The disk's sync latency is what the event route's answers wait for (with the log on tmpfs
 * the benchmark ran ~20% faster). A quiet log (under SPARE_MIN_BYTES per segment) gets plain segments.
 */
const SPARE_MIN_BYTES = 256 * 1024;
const ZEROS = new Uint8Array(1024 * 1024);

let counter = 0;
/** Names sort in creation order across restarts (ms timestamp first) and never repeat. */
const segmentName = () => `${String(Date.now()).padStart(15, '0')}-${String(counter++ % 1e6).padStart(6, '0')}.ndjson`;

export class LogSegments {
  /** The next segment once zero-filled; `spareFilling` while it is being written. */
  private spare: Segment | undefined;
  private spareFilling = false;
  private lastBytes = 0;
  private closed = false;

  constructor(readonly dir: string, private maxBytes: number) {}

  /**
   * Segments left by an earlier run, oldest first. A crash can leave a torn last line that was never
   * acknowledged (its batch never synced), and a spare segment ends in zeros: each is cut after the last whole
   * line before its first zero byte (lines never hold one), and a segment left with no line is removed.
   */
  leftovers(): string[] {
    const files = readdirSync(this.dir).filter((f) => f.endsWith('.ndjson')).sort();
    const out: string[] = [];
    for (const f of files) {
      const p = join(this.dir, f);
      const size = statSync(p).size;
      // Only the last byte decides; a whole segment (up to maxBytes) is read only when it is torn.
      if (size > 0 && lastByte(p, size) !== 0x0a) {
        const bytes = readFileSync(p);
        const zero = bytes.indexOf(0);
        const end = zero < 0 ? bytes.length : zero;
        const keep = end === 0 ? 0 : bytes.lastIndexOf(0x0a, end - 1) + 1;
        if (keep < end) log.warn('ingest log: cut torn tail', { segment: f, dropped: end - keep });
        if (keep === 0) {
          rmSync(p, { force: true });
          continue;
        }
        truncateSync(p, keep);
      }
      out.push(p);
    }
    return out;
  }

  /** The spare, renamed so that names keep the order of use, when one is ready; else a new empty file. */
  async open(): Promise<Segment> {
    const spare = this.spare;
    this.spare = undefined;
    let seg: Segment | undefined;
    if (spare) {
      const path = join(this.dir, segmentName());
      try {
        renameSync(spare.path, path);
        await syncDir(this.dir);
        seg = { ...spare, path, openedAt: Date.now() };
      } catch (e) {
        log.warn('ingest log: could not take the prepared segment', { error: String(e) });
        await discard(spare);
      }
    }
    seg ??= await this.create(0);
    if (this.lastBytes >= SPARE_MIN_BYTES && !this.closed && !this.spareFilling) this.prepareSpare();
    return seg;
  }

  /** Closes a full or idle segment; true when it holds lines (for the loader), else it is removed. */
  async seal(seg: Segment): Promise<boolean> {
    this.lastBytes = seg.bytes;
    // The zeros past the last line go; should a crash undo this, leftovers() cuts them again.
    if (seg.capacity > seg.bytes) await seg.fd.truncate(seg.bytes);
    await seg.fd.close();
    if (seg.bytes > 0) return true;
    rmSync(seg.path, { force: true });
    return false;
  }

  /**
   * After a refused write or sync, cuts the segment back to its last synced batch and closes it: true when
   * that leaves lines (for the loader). If even the cut fails the segment is left alone, false: the next
   * start cuts its torn tail and loads it (leftovers()).
   */
  async cut(seg: Segment, synced: number): Promise<boolean> {
    try {
      await seg.fd.truncate(synced);
      await seg.fd.datasync();
    } catch (e) {
      await seg.fd.close().catch(() => {});
      log.error('ingest log: could not cut a failed segment back; it loads at the next start', { segment: basename(seg.path), error: String(e) });
      return false;
    }
    await seg.fd.close().catch(() => {});
    if (synced > 0) return true;
    rmSync(seg.path, { force: true });
    return false;
  }

  /** No more segments: an unused spare goes. */
  async close() {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    if (spare) await discard(spare);
  }

  /** Zero-fills the next segment beside the log's writes, sized from the last one. */
  private prepareSpare() {
    this.spareFilling = true;
    const capacity = Math.min(this.maxBytes, Math.ceil((this.lastBytes * 1.5) / ZEROS.length) * ZEROS.length);
    this.create(capacity)
      .then(async (s) => {
        if (this.closed) await discard(s);
        else this.spare = s;
      }, (e) => log.warn('ingest log: could not prepare the next segment', { error: String(e) }))
      .finally(() => (this.spareFilling = false));
  }

  private async create(capacity: number): Promise<Segment> {
    const path = join(this.dir, segmentName());
    // The zeros go through a plain descriptor and one sync; the lines through an O_DSYNC one.
    const lines = DSYNC ? constants.O_WRONLY | constants.O_CREAT | DSYNC : 'w';
    let fd = await open(path, capacity ? 'w' : lines, 0o644);
    try {
      if (capacity) {
        for (let off = 0; off < capacity; off += ZEROS.length) await fd.write(ZEROS, 0, Math.min(ZEROS.length, capacity - off), off);
        await fd.datasync();
        if (DSYNC) {
          await fd.close();
          fd = await open(path, lines);
        }
      }
      // The new file's directory entry must survive a crash too.
      await syncDir(this.dir);
    } catch (e) {
      await fd.close().catch(() => {});
      rmSync(path, { force: true });
      throw e;
    }
    return { path, fd, bytes: 0, capacity, openedAt: Date.now() };
  }
}

async function discard(s: Segment) {
  await s.fd.close().catch(() => {});
  rmSync(s.path, { force: true });
}

function lastByte(path: string, size: number): number {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0]!;
  } finally {
    closeSync(fd);
  }
}

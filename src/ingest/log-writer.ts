// The durable ingest log: lines are appended to segment files with group commit (one synchronous write per
// batch, O_DSYNC or write + fdatasync; every waiter of the batch released once it is on disk, one batch at a
// time), and sealed segments go to the loader.
import { closeSync, constants, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { log } from '../log.ts';
import { syncDir } from '../storage/durable-file.ts';

export type LogWriterOptions = {
  /** Seal the open segment once it is this old (ms)… */
  rotateMs?: number;
  /** …or this large (bytes), whichever comes first. */
  rotateBytes?: number;
  onSeal: (path: string) => void;
  /** What an append is rejected with when its batch could not be written or synced (default: the cause). */
  refusal?: (cause: unknown) => unknown;
};

/** `capacity`: bytes zero-filled and synced before use (a spare); lines are written over them from offset 0. */
type Segment = { path: string; fd: FileHandle; bytes: number; capacity: number; openedAt: number };

/**
 * While the log is busy, the next segment is created and zero-filled ahead of use: a write over blocks that
 * already hold synced zeros leaves the file's size and extents alone, so its sync writes the data only, not
 * the inode too. The disk's sync latency is what the event route's answers wait for (with the log on tmpfs
 * the benchmark ran ~20% faster). A quiet log (under SPARE_MIN_BYTES per segment) gets plain segments.
 */
const SPARE_MIN_BYTES = 256 * 1024;
const ZEROS = new Uint8Array(1024 * 1024);

const encoder = new TextEncoder();

/**
 * Segments are opened with O_DSYNC where the platform has it: each write returns once its data is on disk,
 * as write + fdatasync would, in one system call handed to the runtime's thread pool instead of two. Every
 * hand-off wakes a pool thread, which on a small machine preempts the event route's thread.
 */
const DSYNC: number = constants.O_DSYNC ?? 0;
let counter = 0;
/** Names sort in creation order across restarts (ms timestamp first) and never repeat. */
const segmentName = () => `${String(Date.now()).padStart(15, '0')}-${String(counter++ % 1e6).padStart(6, '0')}.ndjson`;

export class LogWriter {
  private lines: string[] = [];
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private seg: Segment | undefined;
  /** The next segment once zero-filled; `spareFilling` while it is being written. */
  private spare: Segment | undefined;
  private spareFilling = false;
  private lastBytes = 0;
  /** fd work (write, sync, seal) is serialised through this chain. */
  private chain: Promise<void> = Promise.resolve();
  private flushQueued = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private rotateMs: number;
  private rotateBytes: number;

  constructor(readonly dir: string, private opts: LogWriterOptions) {
    this.rotateMs = opts.rotateMs ?? 1000;
    this.rotateBytes = opts.rotateBytes ?? 16 * 1024 * 1024;
    mkdirSync(dir, { recursive: true });
  }

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
      // Only the last byte decides; a whole segment (up to rotateBytes) is read only when it is torn.
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

  start() {
    // Idle segments must still reach the loader within about rotateMs.
    this.timer = setInterval(() => {
      if (this.seg && Date.now() - this.seg.openedAt >= this.rotateMs) this.enqueue(() => this.seal());
    }, Math.max(50, this.rotateMs / 4));
  }

  /** Resolves once the line is on disk. */
  append(line: string): Promise<void> {
    if (this.closed) {
      const e = new Error('ingest log is closed');
      return Promise.reject(this.opts.refusal ? this.opts.refusal(e) : e);
    }
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.lines.push(line);
    if (!this.flushQueued) {
      this.flushQueued = true;
      this.enqueue(() => this.flush());
    }
    return p;
  }

  private enqueue(fn: () => Promise<void>) {
    this.chain = this.chain.then(fn).catch((e) => log.error('ingest log failure', { error: String(e) }));
  }

  private async flush() {
    this.flushQueued = false;
    if (!this.lines.length) return;
    // Everything appended while the previous batch was syncing goes out in this one write.
    const batch = this.lines.join('\n') + '\n';
    const waiters = this.waiters;
    this.lines = [];
    this.waiters = [];
    try {
      if (this.seg && (this.seg.bytes >= this.rotateBytes || Date.now() - this.seg.openedAt >= this.rotateMs)) await this.seal();
      const seg = this.seg ?? (this.seg = await this.openSegment());
      const synced = seg.bytes;
      const buf = encoder.encode(batch);
      try {
        let off = 0;
        // At the segment's offset, not O_APPEND: a spare's zeros are overwritten in place.
        while (off < buf.length) off += (await seg.fd.write(buf, off, buf.length - off, synced + off)).bytesWritten;
        seg.bytes += buf.length;
        // One batch on its way to disk at a time: what arrives meanwhile goes out in the next write. Overlapping
        // the next batch's write and sync with this one made batches a third smaller at no lower latency, and
        // every sync costs ~150 µs of kernel CPU here (bench/ingest, same host: 15.5–16.7k → 18.2–18.3k events/s).
        if (!DSYNC) await seg.fd.datasync();
      } catch (e) {
        await this.abandon(seg, synced);
        throw e;
      }
      for (const w of waiters) w.resolve();
    } catch (e) {
      const reason = this.opts.refusal ? this.opts.refusal(e) : e;
      for (const w of waiters) w.reject(reason);
      log.error('ingest log write failed; its events were refused', { events: waiters.length, error: String(e) });
    }
  }

  /**
   * After a failed write or sync (a full disk, an I/O error) the segment is cut back to its last synced
   * batch and sealed, and the next batch starts a new one: appending on after a partial write would leave
   * a torn line between acknowledged ones, and the loader could not read the segment. If even the cut
   * fails the segment is left alone: the next start cuts its torn tail and loads it (leftovers()).
   */
  private async abandon(seg: Segment, synced: number) {
    this.seg = undefined;
    try {
      await seg.fd.truncate(synced);
      await seg.fd.datasync();
    } catch (e) {
      await seg.fd.close().catch(() => {});
      log.error('ingest log: could not cut a failed segment back; it loads at the next start', { segment: basename(seg.path), error: String(e) });
      return;
    }
    await seg.fd.close().catch(() => {});
    if (synced > 0) this.opts.onSeal(seg.path);
    else rmSync(seg.path, { force: true });
  }

  /** The spare, renamed so that names keep the order of use, when one is ready; else a new empty file. */
  private async openSegment(): Promise<Segment> {
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
    seg ??= await this.createSegment(0);
    if (this.lastBytes >= SPARE_MIN_BYTES && !this.closed && !this.spareFilling) this.prepareSpare();
    return seg;
  }

  /** Zero-fills the next segment beside the log's writes, sized from the last one. */
  private prepareSpare() {
    this.spareFilling = true;
    const capacity = Math.min(this.rotateBytes, Math.ceil((this.lastBytes * 1.5) / ZEROS.length) * ZEROS.length);
    this.createSegment(capacity)
      .then(async (s) => {
        if (this.closed) await discard(s);
        else this.spare = s;
      }, (e) => log.warn('ingest log: could not prepare the next segment', { error: String(e) }))
      .finally(() => (this.spareFilling = false));
  }

  private async createSegment(capacity: number): Promise<Segment> {
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

  private async seal() {
    const seg = this.seg;
    if (!seg) return;
    this.seg = undefined;
    this.lastBytes = seg.bytes;
    // The zeros past the last line go; should a crash undo this, leftovers() cuts them again.
    if (seg.capacity > seg.bytes) await seg.fd.truncate(seg.bytes);
    await seg.fd.close();
    if (seg.bytes > 0) this.opts.onSeal(seg.path);
    else rmSync(seg.path, { force: true });
  }

  /** Writes and syncs everything pending, seals the open segment and refuses further appends. */
  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.enqueue(() => this.flush());
    this.enqueue(() => this.seal());
    await this.chain;
    const spare = this.spare;
    this.spare = undefined;
    if (spare) await discard(spare);
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

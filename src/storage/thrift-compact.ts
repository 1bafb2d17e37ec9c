// Thrift's compact protocol, read into a generic tree and written back byte for byte: enough to edit a Parquet
// footer (FileMetaData) without knowing every field of it. Unknown fields survive a round trip untouched.

/** Compact protocol type ids (bool's value rides in the field header; in a list it is a byte). */
export const T = { TRUE: 1, FALSE: 2, I8: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

export type TValue = boolean | number | bigint | Uint8Array | TList | TMap | TStruct;
export type TList = { elem: number; items: TValue[] };
export type TMap = { key: number; val: number; entries: [TValue, TValue][] };
/** Fields by id, in the order read (written back in that order; new fields go last). */
export type TStruct = Map<number, { type: number; value: TValue }>;

class Reader {
  pos = 0;
  constructor(private buf: Uint8Array) {}
  byte() {
    if (this.pos >= this.buf.length) throw new Error('thrift: unexpected end of data');
    return this.buf[this.pos++]!;
  }
  varint(): bigint {
    let out = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      out |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return out;
      shift += 7n;
      if (shift > 70n) throw new Error('thrift: varint too long');
    }
  }
  zigzag(): bigint { const v = this.varint(); return (v >> 1n) ^ -(v & 1n); }
  bytes(n: number) {
    if (this.pos + n > this.buf.length) throw new Error('thrift: unexpected end of data');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  value(type: number): TValue {
    switch (type) {
      case T.TRUE: return true;
      case T.FALSE: return false;
      case T.I8: { const b = this.byte(); return b > 127 ? b - 256 : b; }
      case T.I16: case T.I32: return Number(this.zigzag());
      case T.I64: return this.zigzag();
      case T.DOUBLE: return new DataView(this.bytes(8).slice().buffer).getFloat64(0, true);
      case T.BINARY: return this.bytes(Number(this.varint())).slice();
      case T.LIST: case T.SET: {
        const h = this.byte();
        const size = (h >> 4) === 15 ? Number(this.varint()) : h >> 4;
        const elem = h & 15;
        const items: TValue[] = [];
        // A bool element is a byte of its own (1 true, else false).
        for (let i = 0; i < size; i++) items.push(elem === T.TRUE || elem === T.FALSE ? this.byte() === T.TRUE : this.value(elem));
        return { elem, items };
      }
      case T.MAP: {
        const size = Number(this.varint());
        if (!size) return { key: 0, val: 0, entries: [] };
        const kv = this.byte();
        const [key, val] = [kv >> 4, kv & 15];
        const entries: [TValue, TValue][] = [];
        for (let i = 0; i < size; i++) entries.push([this.value(key), this.value(val)]);
        return { key, val, entries };
      }
      case T.STRUCT: return this.struct();
      default: throw new Error(`thrift: unknown type ${type}`);
    }
  }

  struct(): TStruct {
    const out: TStruct = new Map();
    let id = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return out;
      const type = h & 15;
      id = h >> 4 ? id + (h >> 4) : Number(this.zigzag());
      out.set(id, { type, value: this.value(type) });
    }
  }
}

/** Reads one struct from `buf` at `offset`; returns it and where it ended. */
export function readStruct(buf: Uint8Array, offset = 0): { struct: TStruct; end: number } {
  const r = new Reader(buf);
  r.pos = offset;
  const struct = r.struct();
  return { struct, end: r.pos };
}

class Writer {
  private chunks: number[] = [];
  byte(b: number) { this.chunks.push(b & 0xff); }
  varint(v: bigint) {
    let x = BigInt.asUintN(64, v);
    while (x >= 0x80n) { this.byte(Number(x & 0x7fn) | 0x80); x >>= 7n; }
    this.byte(Number(x));
  }
  zigzag(v: bigint) { this.varint((v << 1n) ^ (v >> 63n)); }
  bytes(b: Uint8Array) { for (const x of b) this.chunks.push(x); }

  value(type: number, v: TValue) {
    switch (type) {
      case T.TRUE: case T.FALSE: return;
      case T.I8: return this.byte(v as number);
      case T.I16: case T.I32: return this.zigzag(BigInt(v as number));
      case T.I64: return this.zigzag(BigInt(v as bigint | number));
      case T.DOUBLE: { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, v as number, true); return this.bytes(new Uint8Array(d.buffer)); }
      case T.BINARY: { const b = v as Uint8Array; this.varint(BigInt(b.length)); return this.bytes(b); }
      case T.LIST: case T.SET: {
        const { elem, items } = v as TList;
        if (items.length < 15) this.byte((items.length << 4) | elem);
        else { this.byte(0xf0 | elem); this.varint(BigInt(items.length)); }
        for (const it of items) {
          if (elem === T.TRUE || elem === T.FALSE) this.byte(it ? T.TRUE : T.FALSE);
          else this.value(elem, it);
        }
        return;
      }
      case T.MAP: {
        const { key, val, entries } = v as TMap;
        this.varint(BigInt(entries.length));
        if (!entries.length) return;
        this.byte((key << 4) | val);
        for (const [k, x] of entries) { this.value(key, k); this.value(val, x); }
        return;
      }
      case T.STRUCT: return this.struct(v as TStruct);
      default: throw new Error(`thrift: unknown type ${type}`);
    }
  }

  struct(s: TStruct) {
    let last = 0;
    for (const [id, { type, value }] of s) {
      const t = type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type;
      const delta = id - last;
      if (delta > 0 && delta < 16) this.byte((delta << 4) | t);
      else { this.byte(t); this.zigzag(BigInt(id)); }
      this.value(t, value);
      last = id;
    }
    this.byte(0);
  }

  done() { return Uint8Array.from(this.chunks); }
}

export function writeStruct(s: TStruct): Uint8Array {
  const w = new Writer();
  w.struct(s);
  return w.done();
}

/** A field's value (undefined when absent). */
export const get = <V extends TValue>(s: TStruct, id: number) => s.get(id)?.value as V | undefined;

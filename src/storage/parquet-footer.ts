// A Parquet file's footer (FileMetaData) read from an open file: its schema as top-level columns, and each row
// group's column chunks as byte ranges of the file, so whole column chunks can be copied into another file.
import type { FileHandle } from 'node:fs/promises';
import { get, readStruct, type TList, type TStruct } from './thrift-compact.ts';

/** FileMetaData, SchemaElement, RowGroup, ColumnChunk and ColumnMetaData field ids (parquet.thrift). */
export const F = {
  file: { version: 1, schema: 2, numRows: 3, rowGroups: 4, keyValue: 5, createdBy: 6, columnOrders: 7 },
  schema: { type: 1, typeLength: 2, repetition: 3, name: 4, numChildren: 5, scale: 7, precision: 8 },
  rowGroup: { columns: 1, totalByteSize: 2, numRows: 3, sortingColumns: 4, fileOffset: 5, totalCompressed: 6, ordinal: 7 },
  chunk: { fileOffset: 2, meta: 3, offsetIndexOffset: 4, offsetIndexLength: 5, columnIndexOffset: 6, columnIndexLength: 7 },
  meta: { type: 1, path: 3, uncompressed: 6, compressed: 7, dataPageOffset: 9, indexPageOffset: 10, dictPageOffset: 11, bloomOffset: 14, bloomLength: 15 },
} as const;

/** A top-level column: its schema elements (itself and its subtree, depth first) and how many leaves it has. */
export type TopColumn = { name: string; elements: TStruct[]; leaves: number };
/** A column chunk as bytes of its file: [start, start + length). */
export type ChunkRange = { chunk: TStruct; meta: TStruct; start: number; length: number };
export type RowGroupInfo = { numRows: bigint; chunks: ChunkRange[] };
export type Footer = { meta: TStruct; columns: TopColumn[]; rowGroups: RowGroupInfo[] };

const MAGIC = 'PAR1';
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b ?? new Uint8Array());

export async function readFooter(fd: FileHandle): Promise<Footer> {
  const { size } = await fd.stat();
  if (size < 12) throw new Error('not a Parquet file: too short');
  const tail = Buffer.alloc(8);
  await fd.read(tail, 0, 8, size - 8);
  if (tail.toString('latin1', 4) !== MAGIC) throw new Error('not a Parquet file (or an encrypted one)');
  const len = tail.readUInt32LE(0);
  const footerStart = size - 8 - len;
  if (footerStart < 4) throw new Error('Parquet footer length out of range');
  const buf = Buffer.alloc(len);
  await fd.read(buf, 0, len, footerStart);
  const meta = readStruct(buf).struct;

  // The schema is a flattened tree: the root, then each node followed by its num_children children.
  const elements = (get<TList>(meta, F.file.schema)?.items ?? []) as TStruct[];
  const columns: TopColumn[] = [];
  let i = 1;
  const subtree = (out: TStruct[]): number => {
    const el = elements[i++];
    if (!el) throw new Error('Parquet schema ends early');
    out.push(el);
    const n = get<number>(el, F.schema.numChildren) ?? 0;
    if (!n) return 1;
    let leaves = 0;
    for (let k = 0; k < n; k++) leaves += subtree(out);
    return leaves;
  };
  const rootChildren = get<number>(elements[0]!, F.schema.numChildren) ?? 0;
  for (let k = 0; k < rootChildren; k++) {
    const els: TStruct[] = [];
    const leaves = subtree(els);
    columns.push({ name: text(get<Uint8Array>(els[0]!, F.schema.name)), elements: els, leaves });
  }

  const rowGroups = ((get<TList>(meta, F.file.rowGroups)?.items ?? []) as TStruct[]).map((rg) => ({
    numRows: BigInt(get<bigint>(rg, F.rowGroup.numRows) ?? 0n),
    chunks: ((get<TList>(rg, F.rowGroup.columns)?.items ?? []) as TStruct[]).map((chunk) => {
      if (get(chunk, 1) !== undefined) throw new Error('Parquet column chunk in another file: not supported');
      const m = get<TStruct>(chunk, F.chunk.meta);
      if (!m) throw new Error('Parquet column chunk without metadata (encrypted?)');
      const dict = get<bigint>(m, F.meta.dictPageOffset);
      const data = get<bigint>(m, F.meta.dataPageOffset)!;
      // A dictionary page, when there is one, comes first; total_compressed_size covers every page and header.
      const start = Number(dict !== undefined && dict > 0n && dict < data ? dict : data);
      const length = Number(get<bigint>(m, F.meta.compressed)!);
      if (start < 4 || start + length > footerStart) throw new Error('Parquet column chunk out of the file\'s data');
      return { chunk, meta: m, start, length };
    }),
  }));
  const leafCount = columns.reduce((n, c) => n + c.leaves, 0);
  for (const rg of rowGroups) if (rg.chunks.length !== leafCount) throw new Error('Parquet row group does not match its schema');
  return { meta, columns, rowGroups };
}

/** Index of each top-level column's first leaf among a row group's chunks. */
export function leafOffsets(columns: TopColumn[]): Map<string, { first: number; col: TopColumn }> {
  const out = new Map<string, { first: number; col: TopColumn }>();
  let n = 0;
  for (const c of columns) { out.set(c.name, { first: n, col: c }); n += c.leaves; }
  return out;
}

/**
 * True when the two columns store the same bytes: same tree shape and, node by node, the same physical type,
 * length, repetition, scale and precision. Names and logical annotations may differ (a column renamed, a
 * TIMESTAMP read as TIMESTAMPTZ: both INT64 microseconds).
 */
export function sameStorage(a: TopColumn, b: TopColumn): boolean {
  if (a.elements.length !== b.elements.length || a.leaves !== b.leaves) return false;
  const keys = [F.schema.type, F.schema.typeLength, F.schema.repetition, F.schema.numChildren, F.schema.scale, F.schema.precision];
  return a.elements.every((x, i) => keys.every((k) => get(x, k) === get(b.elements[i]!, k)));
}

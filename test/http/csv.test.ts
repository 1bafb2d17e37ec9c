// The CSV writer (JS side) and its DuckDB twin: RFC 4180 quoting and formula neutralisation, the same rule in both.
import { expect, test } from 'bun:test';
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import { csvCell, csvLine, csvText, neutraliseSql } from '../../src/http/csv.ts';

const CELLS = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\r=x', 'a,b', 'say "hi"', 'two\nlines', 'plain', '', 'x=1'];

test('cells: quoting, neutralisation, nulls and numbers', () => {
  expect(csvCell(null)).toBe('');
  expect(csvCell(undefined)).toBe('');
  expect(csvCell(-5)).toBe('-5'); // a number is not a formula
  expect(csvCell(true)).toBe('true');
  expect(csvCell('=1+1')).toBe("'=1+1");
  expect(csvCell('a,b')).toBe('"a,b"');
  expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  expect(csvCell('-x,"y"')).toBe(`"'-x,""y"""`);
  expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
});

test('a CSV parser reads back what csvText wrote: each cell the original, neutralised', () => {
  const rows = CELLS.map((c, i) => ({ i, c }));
  const back: any[] = parse(csvText(['i', 'c'], rows), { columns: true });
  expect(back.map((r) => r.c)).toEqual(CELLS.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c)));
});

test('neutraliseSql gives DuckDB the same rule', async () => {
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const got = (await c.runAndReadAll(`SELECT ${neutraliseSql('x')} AS y FROM unnest(?::VARCHAR[]) t(x)`, [listValue(CELLS)])).getRowObjectsJS().map((r) => r.y);
  inst.closeSync();
  expect(got).toEqual(CELLS.map((v) => csvCell(v).replace(/^"(.*)"$/s, '$1').replaceAll('""', '"')));
});

// The hot-event flush sorts one site's consecutive months at a time, about SLICE_ROWS rows per slice (never
// splitting a month, never mixing sites), so its memory stays bounded whatever waits in the hot table.
import { expect, test } from 'bun:test';
import { slices } from '../../src/storage/hot-events.ts';

const part = (site_id: string, month: string, rows: number) => ({ site_id, month, rows });

test('months are cut into slices of about 250k rows, one site per slice, a large month alone', () => {
  const parts = [
    part('a', '2025-01', 100_000), part('a', '2025-02', 100_000), part('a', '2025-03', 100_000),
    part('a', '2025-04', 400_000), part('a', '2025-05', 10),
    part('b', '2025-01', 5), part('b', '2025-02', 5),
  ];
  expect(slices(parts).map((s) => s.map((p) => `${p.site_id}/${p.month}`))).toEqual([
    ['a/2025-01', 'a/2025-02'], ['a/2025-03'], ['a/2025-04'], ['a/2025-05'], ['b/2025-01', 'b/2025-02'],
  ]);
  expect(slices([])).toEqual([]);
});

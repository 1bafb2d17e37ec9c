// Periods, local-midnight boundaries and chart buckets in real IANA zones (pure functions, no server).
import { describe, expect, test } from 'bun:test';
import { addMonths, isDate, iso, offsetChanges, startOfDayUtc } from '../../src/query/parse/calendar.ts';
import { comparisonRange, dayRange, resolvePeriod } from '../../src/query/parse/period.ts';
import { bucketLabels, defaultInterval } from '../../src/query/sql/buckets.ts';

const never = async () => { throw new Error('not needed'); };

describe('local midnight in UTC', () => {
  test.each([
    ['2025-10-26', 'Europe/Berlin', '2025-10-25T22:00:00.000Z'],
    ['2025-10-27', 'Europe/Berlin', '2025-10-26T23:00:00.000Z'],
    ['2025-03-30', 'Europe/Berlin', '2025-03-29T23:00:00.000Z'],
    ['2025-03-31', 'Europe/Berlin', '2025-03-30T22:00:00.000Z'],
    ['2025-03-09', 'America/New_York', '2025-03-09T05:00:00.000Z'],
    ['2025-03-10', 'America/New_York', '2025-03-10T04:00:00.000Z'],
    ['2025-06-01', 'Asia/Kolkata', '2025-05-31T18:30:00.000Z'],
    ['2025-06-01', 'UTC', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01', 'Pacific/Kiritimati', '2025-05-31T10:00:00.000Z'],
    // Chile springs forward at midnight: the day starts at 01:00 local.
    ['2025-09-07', 'America/Santiago', '2025-09-07T04:00:00.000Z'],
  ])('%s in %s starts at %s', (date, tz, expected) => {
    expect(iso(startOfDayUtc(date, tz))).toBe(expected);
  });
});

describe('offset changes within a range', () => {
  test('Berlin 2025: CET, CEST from 30 March 01:00 UTC, CET from 26 October 01:00 UTC', () => {
    const changes = offsetChanges(Date.parse('2025-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z'), 'Europe/Berlin');
    expect(changes.map((c) => [iso(c.at), c.offset / 3_600_000])).toEqual([
      ['2025-01-01T00:00:00.000Z', 1], ['2025-03-30T01:00:00.000Z', 2], ['2025-10-26T01:00:00.000Z', 1],
    ]);
  });

  test('a zone without DST has one offset; a half-hour zone keeps its minutes', () => {
    expect(offsetChanges(Date.parse('2025-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toEqual([
      { at: Date.parse('2025-01-01T00:00:00Z'), offset: 5.5 * 3_600_000 },
    ]);
  });
});

describe('periods', () => {
  const tz = 'Europe/Berlin';
  test.each([
    ['day', '2025-10-26', '2025-10-26', '2025-10-26'],
    ['7d', '2025-10-26', '2025-10-20', '2025-10-26'],
    ['30d', '2025-03-01', '2025-01-31', '2025-03-01'],
    ['month', '2024-02-10', '2024-02-01', '2024-02-29'],
    ['12mo', '2025-01-15', '2024-02-01', '2025-01-31'],
  ])('%s on %s → %s … %s', async (period, date, from, to) => {
    const r = await resolvePeriod({ period, date }, tz, never);
    expect([r.from, r.to]).toEqual([from, to]);
    expect(r.fromUtc).toBe(iso(startOfDayUtc(from, tz)));
  });

  test('the day of the fall-back change is 25 hours long, spring-forward 23', async () => {
    const fall = await resolvePeriod({ period: 'day', date: '2025-10-26' }, tz, never);
    expect(Date.parse(fall.toUtc) - Date.parse(fall.fromUtc)).toBe(25 * 3_600_000);
    const spring = await resolvePeriod({ period: 'day', date: '2025-03-30' }, tz, never);
    expect(Date.parse(spring.toUtc) - Date.parse(spring.fromUtc)).toBe(23 * 3_600_000);
  });

  test('all starts at the first date given, realtime spans 30 minutes', async () => {
    const all = await resolvePeriod({ period: 'all' }, tz, async () => '2024-05-01');
    expect(all.from).toBe('2024-05-01');
    const rt = await resolvePeriod({ period: 'realtime' }, tz, never);
    expect(Date.parse(rt.toUtc) - Date.parse(rt.fromUtc)).toBeGreaterThanOrEqual(30 * 60_000);
  });

  test('comparisons: same length before, calendar month before, a year back (29 Feb → 28 Feb)', () => {
    const week = dayRange('7d', '2025-10-20', '2025-10-26', tz);
    expect(comparisonRange(week, 'previous_period')).toMatchObject({ from: '2025-10-13', to: '2025-10-19' });
    const march = dayRange('month', '2025-03-01', '2025-03-31', tz);
    expect(comparisonRange(march, 'previous_period')).toMatchObject({ from: '2025-02-01', to: '2025-02-28' });
    const leap = dayRange('day', '2024-02-29', '2024-02-29', tz);
    expect(comparisonRange(leap, 'year_over_year')).toMatchObject({ from: '2023-02-28', to: '2023-02-28' });
    expect(comparisonRange(week, 'none')).toBeNull();
    expect(addMonths('2025-03-31', -1)).toBe('2025-02-28');
  });
});

describe('chart buckets', () => {
  test('hourly labels follow the wall clock across DST changes', () => {
    const fall = bucketLabels(dayRange('day', '2025-10-26', '2025-10-26', 'Europe/Berlin'), 'hour');
    expect(fall).toHaveLength(24);
    expect(fall.filter((l) => l === '2025-10-26 02:00:00')).toHaveLength(1);
    const spring = bucketLabels(dayRange('day', '2025-03-30', '2025-03-30', 'Europe/Berlin'), 'hour');
    expect(spring).toHaveLength(23);
    const kolkata = bucketLabels(dayRange('day', '2025-06-01', '2025-06-01', 'Asia/Kolkata'), 'hour');
    expect(kolkata[0]).toBe('2025-06-01 00:00:00');
    expect(kolkata).toHaveLength(24);
  });

  test('weeks start on Monday, months on the 1st; default intervals', () => {
    const r = dayRange('custom', '2025-10-01', '2025-10-14', 'UTC');
    expect(bucketLabels(r, 'week')).toEqual(['2025-09-29', '2025-10-06', '2025-10-13']);
    expect(bucketLabels(dayRange('custom', '2025-01-31', '2025-03-01', 'UTC'), 'month')).toEqual(['2025-01-01', '2025-02-01', '2025-03-01']);
    expect(defaultInterval(dayRange('day', '2025-10-26', '2025-10-26', 'UTC'))).toBe('hour');
    expect(defaultInterval(dayRange('30d', '2025-10-01', '2025-10-30', 'UTC'))).toBe('day');
    expect(defaultInterval(dayRange('custom', '2025-01-01', '2025-06-30', 'UTC'))).toBe('month');
  });
});

describe('dates a query may name', () => {
  test('from 1970 on; years before 1000 once turned into NaN offsets and a 500 (found by fuzzing)', () => {
    expect(['1970-01-01', '2026-02-28', '9999-12-31'].map(isDate)).toEqual([true, true, true]);
    expect(['0100-01-01', '0999-12-31', '1969-12-31', '2026-02-30'].map(isDate)).toEqual([false, false, false, false]);
  });
});

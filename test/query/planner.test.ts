// The query engine's stages in process, no server: parse (request parameters → scope), plan (which stored
// relations a report reads), SQL (text and bound parameters), run against a real DuckDB in a temp DATA_DIR.
import { describe, expect, test } from 'bun:test';
import { withTempStore } from '../helpers/temp-store.ts';
import { scopeFor, type CommonQuery } from '../../src/query/parse/common-query.ts';
import { goalsByIds } from '../../src/goals/service.ts';
import { planFor } from '../../src/query/plan/planner.ts';
import { QueryError } from '../../src/query/errors.ts';
import { one } from '../../src/query/run.ts';

const SITE = { id: '6f1c2a52-8f0e-4c4e-9d7a-3b5e1f0a9c11', timezone: 'Europe/Berlin', currency: 'EUR', created_at: '2025-01-01T00:00:00.000Z' };
const MARCH = { period: 'custom', from: '2025-03-01', to: '2025-03-31' } as const;
const HOSTILE = "'); DROP TABLE events; --";

const store = withTempStore('tern-planner-');

const scope = (q: CommonQuery) => scopeFor({ db: store.db, meta: store.db, files: store.files, goals: (siteId, ids) => goalsByIds(store.db, siteId, ids) }, SITE, q);
const filtered = (dimension: string, value: string) => scope({ ...MARCH, filters: JSON.stringify([{ dimension, operator: 'is', value }]) });

describe('parse: request parameters → scope', () => {
  test('a custom range is whole local days, as UTC instants in the site zone', async () => {
    const s = await scope(MARCH);
    expect(s.range).toMatchObject({ from: '2025-03-01', to: '2025-03-31', fromUtc: '2025-02-28T23:00:00.000Z', toUtc: '2025-03-31T22:00:00.000Z' });
    expect(s.filters).toEqual([]);
  });

  test('filters resolve to typed targets; a bad one is an invalid QueryError, not an HTTP error', async () => {
    const s = await filtered('country', 'DE');
    expect(s.filters).toEqual([{ dimension: 'country', operator: 'is', values: ['DE'], target: { kind: 'column', level: 'visit', column: 'country', onEveryEvent: true } }]);
    const bad = await scope({ ...MARCH, filters: '[{"dimension":"nope","operator":"is","value":"x"}]' }).catch((e) => e);
    expect(bad).toBeInstanceOf(QueryError);
    expect(bad).toMatchObject({ kind: 'invalid', message: "Invalid filters: filter 0: unknown dimension 'nope'" });
  });

  test('period=all starts on the day the site was created while it has no visit', async () => {
    const s = await scope({ period: 'all' });
    expect(s.range.from).toBe('2025-01-01');
  });
});

describe('plan: which stored relation a report reads', () => {
  test('pageviews of an unfiltered, quarter-hour-aligned scope come from the 15-minute counts, the range bound', async () => {
    const s = await scope(MARCH);
    const src = planFor(store.db, s).metrics('events', ['pageviews', 'events']);
    expect(src.table).toBe('counts');
    expect(src.time).toBe('slot');
    expect(src.from.sql).toBe('(SELECT * FROM event_counts WHERE site_id = ? AND slot >= ?::TIMESTAMP AND slot < ?::TIMESTAMP)');
    expect(src.from.params).toEqual([SITE.id, s.range.fromUtc, s.range.toUtc]);
  });

  test('with a filter, or a metric the counts lack, the scoped events or visits instead', async () => {
    const s = await filtered('page', '/pricing');
    expect(planFor(store.db, s).metrics('events', ['pageviews']).table).toBe('events');
    const u = await scope(MARCH);
    expect(planFor(store.db, u).metrics('events', ['visitors', 'pageviews']).table).toBe('events');
    expect(planFor(store.db, u).metrics('visits', ['visits']).table).toBe('visits');
  });

  test('a range that is not on quarter hours (realtime) never reads the counts', async () => {
    const s = await scope({ period: 'realtime' });
    expect(planFor(store.db, { ...s, range: { ...s.range, fromUtc: '2025-03-05T10:07:13.000Z', toUtc: '2025-03-05T10:37:14.000Z' } }).metrics('events', ['pageviews']).table).toBe('events');
  });

  test('the marks hold for an unfiltered scope and not once stale from before its start; never with filters', async () => {
    const s = await scope(MARCH);
    expect(await planFor(store.db, s).marks()).toBe(true);
    expect((await planFor(store.db, s).groups('events', 'path')).table).toBe('marked');
    expect((await planFor(store.db, s).groups('events', 'browser')).table).toBe('events');
    expect((await planFor(store.db, s).groups('visits', 'source')).table).toBe('value_visits');
    expect((await planFor(store.db, s).groups('visits', 'referrer')).table).toBe('visits');
    expect(await planFor(store.db, await filtered('country', 'DE')).marks()).toBe(false);
    await store.db.exec(`INSERT INTO marks_stale VALUES (?, '2025-03-10'::TIMESTAMP)`, [SITE.id]);
    try {
      expect(await planFor(store.db, s).marks()).toBe(false);
      expect((await planFor(store.db, s).groups('events', 'path')).table).toBe('events');
      const later = await scope({ period: 'custom', from: '2025-04-01', to: '2025-04-30' });
      expect(await planFor(store.db, later).marks()).toBe(true);
    } finally {
      await store.db.exec(`DELETE FROM marks_stale`);
    }
  });

  test('paid events come from the purchases registry unfiltered, from the events with revenue when filtered', async () => {
    const s = await scope(MARCH);
    expect(planFor(store.db, s).paidEvents().sql).toStartWith('(SELECT * FROM purchases WHERE site_id = ?');
    const f = planFor(store.db, await filtered('country', 'DE')).paidEvents();
    expect(f.sql).not.toContain('purchases');
    expect(f.sql).toContain('revenue IS NOT NULL');
  });

  test('time on page comes from the engagement rollup unfiltered, from the events of matching visits when filtered', async () => {
    expect(planFor(store.db, await scope(MARCH)).engagement('path', 'all').sql).toContain('FROM file_engagement');
    const f = planFor(store.db, await filtered('country', 'DE')).engagement('path', ['/a']);
    expect(f.sql).not.toContain('file_engagement');
    expect(f.params).toContainEqual(['/a']);
  });
});

describe('SQL: text and parameters', () => {
  test('a user value is only ever a bound parameter, never SQL text', async () => {
    const s = await filtered('page', HOSTILE);
    const plan = planFor(store.db, s);
    for (const f of [plan.events(), plan.visits(), plan.eventsOfVisits(), plan.paidEvents(), await plan.visitors('visits')]) {
      expect(f.sql).not.toContain(HOSTILE);
      expect(f.sql.split('?').length - 1).toBe(f.params.length);
      expect(f.params).toContain(HOSTILE);
    }
  });

  test('the planned queries run: visitors of an empty scope, counted distinct and summed over the marks', async () => {
    const plan = planFor(store.db, await scope(MARCH));
    expect((await plan.visitors('visits')).sql).toContain('first_in_scope');
    expect(await one(store.db, await plan.visitors('visits'))).toEqual({ visitors: null });
    const f = planFor(store.db, await filtered('page', HOSTILE));
    expect((await f.visitors('events')).sql).toStartWith('SELECT count(DISTINCT visitor_id) AS visitors FROM ');
    expect(await one(store.db, await f.visitors('events'))).toEqual({ visitors: 0 });
  });
});

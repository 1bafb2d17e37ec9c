// POST /query over real HTTP: percentage's base (the scope's visitors) whether a part counts it in its own scan
// or a statement beside does, and property filters with and without "(none)" (tested after the carrying test).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadQueryFixture, type QueryFixture } from './setup.ts';

let f: QueryFixture;
beforeAll(async () => { f = await loadQueryFixture(); });
afterAll(async () => { await f.srv.cleanup(); });

/** The scope's visitors as the no-dimension query counts them (visits for visit dimensions, events for event ones). */
async function scopeVisitors(filters: unknown[] | undefined) {
  const d = await f.qdata({ metrics: ['visitors'], ...(filters ? { filters } : {}) });
  return d.results[0].metrics[0] as number;
}

describe('percentage: each row of the scope visitors', () => {
  // Paged and ordered so that each goes to the parts (not the ranked breakdown): by visitors then the value,
  // or two dimensions. Visit-home, event-home on the events as they are, and event-home with rows the events
  // do not give one for one (goal rows, property keys, a visit attribute looked up).
  const CASES: { dimensions: string[]; filters?: unknown[] }[] = [
    { dimensions: ['visit:source', 'visit:country'] },
    { dimensions: ['visit:source', 'visit:country'], filters: [['is', 'visit:country', ['US']]] },
    { dimensions: ['event:props:plan'] },
    { dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]] },
    { dimensions: ['event:page', 'visit:device'] },
    { dimensions: ['event:page', 'visit:source'] },
    { dimensions: ['event:props'] },
    { dimensions: ['event:goal'] },
    { dimensions: ['event:name'], filters: [['contains', 'event:page', ['/']]] },
  ];
  for (const c of CASES) {
    test(`${c.dimensions.join(' × ')}${c.filters ? ` under ${JSON.stringify(c.filters)}` : ''}`, async () => {
      const base = await scopeVisitors(c.filters);
      expect(base).toBeGreaterThan(0);
      const pct = (r: any) => Math.round((1000 * r.metrics[1]) / base) / 10;
      const all = await f.qdata({ metrics: ['percentage', 'visitors'], ...c });
      expect(all.results.length).toBeGreaterThan(0);
      expect(all.results.map((r: any) => r.metrics[0])).toEqual(all.results.map(pct));
      // A page past the first row (where there is one): the base does not depend on which rows the page holds.
      const offset = Math.min(1, all.results.length - 1);
      const d = await f.qdata({ metrics: ['percentage', 'visitors'], ...c, order_by: [['visitors', 'desc']], pagination: { limit: 3, offset } });
      expect(d.results.length).toBeGreaterThan(0);
      expect(d.results.map((r: any) => r.metrics[0])).toEqual(d.results.map(pct));
    });
  }

  test('the hand-counted rows: 5 visitors in October, one with a plan', async () => {
    expect(await f.table({ metrics: ['visitors', 'percentage'], dimensions: ['event:props:plan'], order_by: [['visitors', 'desc']], pagination: { limit: 5 } }))
      .toEqual([['(none)', 5, 100], ['pro', 1, 20]]);
    expect(await f.table({ metrics: ['visitors', 'percentage'], dimensions: ['event:props:plan'], filters: [['is_not', 'event:props:plan', ['(none)']]], order_by: [['visitors', 'desc']] }))
      .toEqual([['pro', 1, 100]]);
    // A page beyond the rows: none, and no error for the missing base.
    expect(await f.table({ metrics: ['visitors', 'percentage'], dimensions: ['event:props:plan'], order_by: [['visitors', 'desc']], pagination: { limit: 5, offset: 10 } })).toEqual([]);
  });
});

describe('property filters: the event carrying the property is tested first, the answers as before', () => {
  // October's 17 events; one carries {plan: pro}.
  const CASES: [unknown[], number][] = [
    [['is', 'event:props:plan', ['pro']], 1],
    [['is', 'event:props:plan', ['(none)']], 16],
    [['is', 'event:props:plan', ['(none)', 'pro']], 17],
    [['is', 'event:props:plan', ['free']], 0],
    [['is_not', 'event:props:plan', ['pro']], 16],
    [['is_not', 'event:props:plan', ['(none)']], 1],
    [['is_not', 'event:props:plan', ['(none)', 'pro']], 0],
    [['contains', 'event:props:plan', ['r']], 1],
    [['not_contains', 'event:props:plan', ['r']], 16],
    [['matches', 'event:props:plan', ['^p']], 1],
    [['not_matches', 'event:props:plan', ['^p']], 16],
    [['is', 'event:props:colour', ['(none)']], 17],
    [['is_not', 'event:props:colour', ['(none)']], 0],
  ];
  for (const [filter, events] of CASES) {
    test(JSON.stringify(filter), async () => {
      const d = await f.qdata({ metrics: ['events'], filters: [filter] });
      expect(d.results[0].metrics[0]).toBe(events);
      // Nested under "not", the complement.
      const n = await f.qdata({ metrics: ['events'], filters: ['not', filter] });
      expect(n.results[0].metrics[0]).toBe(17 - events);
    });
  }
});

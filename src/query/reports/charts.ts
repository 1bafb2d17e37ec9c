// Time series (contract §8 charts): visit metrics per local bucket from visits, pageviews from events (or
// their per-slot counts), every bucket present (empty ones zero).
import { dialectOf, type Runner } from '../sql/dialect.ts';
import { planFor, type Plan, type Scope } from '../plan/planner.ts';
import { bucketLabelSql, bucketLabels, bucketSql, monthStartSql, type Interval } from '../sql/buckets.ts';
import { finish, selectMetrics, type Metric } from '../sql/metrics.ts';
import { rangeEcho } from '../parse/period.ts';
import { rows } from '../run.ts';
import { sql, type Fragment } from '../../storage/sql.ts';

const VISIT_METRICS = ['visitors', 'visits', 'bounce_rate', 'visit_duration'] as const satisfies Metric[];
const EVENT_METRICS = ['pageviews'] as const satisfies Metric[];

/** Rows of `q` (with a bucket column `b`) keyed by the bucket's label. */
async function labelled(db: Runner, plan: Plan, q: Fragment, interval: Interval) {
  const d = dialectOf(plan.scope);
  const found = await rows(db, sql`SELECT ${bucketLabelSql(interval, 'b', d)} AS bucket, ${d.starExcept(['b'])} FROM (${q})`);
  return new Map(found.map((r) => [r.bucket as string, r]));
}

function byBucket(db: Runner, plan: Plan, interval: Interval, table: 'visits' | 'events', ms: readonly Metric[]) {
  const src = plan.metrics(table, ms);
  return labelled(db, plan, sql`SELECT ${bucketSql(interval, plan.scope.range, src.time, dialectOf(plan.scope))} AS b, ${selectMetrics(ms, src.table)} FROM ${src.from} GROUP BY ALL`, interval);
}

export async function chart(db: Runner, scope: Scope, interval: Interval) {
  const labels = bucketLabels(scope.range, interval);
  // Where the marks hold, each bucket's visitors are a sum over the visits' marks, not a distinct count, counted in
  // the same pass as the other visit metrics; month buckets test each visit's mark against its bucket's start (the 12-month
  // chart of the 10M store: ~270 → ~150 ms of server CPU).
  const plan = planFor(db, scope);
  const perBucket = await plan.visitorsPerBucket((c) => bucketSql(interval, scope.range, c), VISIT_METRICS.filter((m) => m !== 'visitors'),
    (c, value) => (interval === 'month' ? monthStartSql(scope.range, c, value, dialectOf(scope)) : null));
  const [visits, events] = await Promise.all([
    perBucket ? labelled(db, plan, perBucket, interval) : byBucket(db, plan, interval, 'visits', VISIT_METRICS),
    byBucket(db, plan, interval, 'events', EVENT_METRICS),
  ]);
  const points = labels.map((date) => {
    const v = finish(VISIT_METRICS, visits.get(date));
    const e = finish(EVENT_METRICS, events.get(date));
    return { date, visitors: v.visitors!, visits: v.visits!, pageviews: e.pageviews!, bounce_rate: v.bounce_rate!, visit_duration: v.visit_duration! };
  });
  return { range: rangeEcho(scope.range), interval, points };
}

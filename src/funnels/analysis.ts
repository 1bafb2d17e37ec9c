// Funnel analysis report: resolve steps (goal steps → their goal's definition), run the one query, derive rates.
import type { MetaDb } from '../storage/meta-db.ts';
import type { Site } from '../sites/model.ts';
import { rangeEcho } from '../query/parse/period.ts';
import { engineOf, scopeFor, type CommonQuery, type QuerySources } from '../query/parse/common-query.ts';
import { goalMatch, type MatchDef } from '../query/sql/goals-match.ts';
import { funnelCounts } from '../query/reports/funnels.ts';
import { conversionRate } from '../query/sql/metrics.ts';
import { listGoals } from '../goals/service.ts';
import type { Funnel, FunnelStep } from './model.ts';
import { getFunnel } from './service.ts';

/** A goal step whose goal no longer exists matches nothing: stored event names are at most 200 characters. */
const NOTHING: MatchDef = { type: 'event', event_name: '?'.repeat(201) };

async function resolveSteps(meta: MetaDb, siteId: string, steps: FunnelStep[]) {
  const goals = new Map((await listGoals(meta, siteId, true)).map((g) => [g.id, g]));
  return steps.map((s) => {
    if (s.type === 'pageview') return { match: { type: 'pageview', path: s.value } as MatchDef, label: s.label ?? s.value };
    if (s.type === 'event') return { match: { type: 'event', event_name: s.value } as MatchDef, label: s.label ?? s.value };
    const goal = goals.get(s.value);
    return { match: goal ? goalMatch(goal) : NOTHING, label: s.label ?? goal?.name ?? s.value };
  });
}

export async function analyzeFunnel(src: QuerySources, site: Site, funnelId: string, q: CommonQuery) {
  const db = src.db;
  const funnel: Funnel = await getFunnel(src.meta, site.id, funnelId);
  const scope = await scopeFor(src, site, q);
  const steps = await resolveSteps(src.meta, site.id, funnel.steps);
  const { visitors, medianSeconds } = await funnelCounts(engineOf(src), scope, steps.map((s) => s.match), funnel.window);
  const first = visitors[0] ?? 0;
  return {
    range: rangeEcho(scope.range),
    funnel,
    steps: steps.map((s, k) => ({
      step: k + 1,
      label: s.label,
      visitors: visitors[k]!,
      conversion_rate: conversionRate(visitors[k]!, first),
      step_conversion_rate: k === 0 ? conversionRate(visitors[k]!, first) : conversionRate(visitors[k]!, visitors[k - 1]!),
      dropoff: k === 0 ? 0 : visitors[k - 1]! - visitors[k]!,
      median_seconds_from_previous: medianSeconds[k]!,
    })),
    conversion_rate: conversionRate(visitors[visitors.length - 1]!, first),
  };
}

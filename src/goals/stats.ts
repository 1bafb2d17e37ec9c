// Goal reports: resolve the common parameters (as the analytics endpoints do) and goal definitions, then query.
import type { Site } from '../sites/model.ts';
import { rangeEcho } from '../query/parse/period.ts';
import { defaultInterval, type Interval } from '../query/sql/buckets.ts';
import { goalCompletions, goalDetail, goalsStats } from '../query/reports/goals.ts';
import { engineOf, scopeFor, type CommonQuery, type QuerySources } from '../query/parse/common-query.ts';
import type { Page } from '../http/page-query.ts';
import { getGoal, listGoals } from './service.ts';

/** True when the caller gave no period parameter at all: the completions list then covers all time. */
const noPeriodGiven = (q: CommonQuery) => [q.period, q.date, q.from, q.to, q.filters].every((v) => v === undefined);

/** Every active goal's totals; archived goals only with include_archived=true, as in the list. */
export async function allGoalStats(src: QuerySources, site: Site, q: CommonQuery & { include_archived?: string }) {
  const scope = await scopeFor(src, site, q);
  const goals = await listGoals(src.meta, site.id, q.include_archived === 'true');
  return { range: rangeEcho(scope.range), goals: await goalsStats(engineOf(src), scope, goals) };
}

export async function oneGoalStats(src: QuerySources, site: Site, goalId: string, q: CommonQuery & { interval?: Interval }) {
  const goal = await getGoal(src.meta, site.id, goalId);
  const scope = await scopeFor(src, site, q);
  const interval = q.interval ?? defaultInterval(scope.range);
  const { metrics, points } = await goalDetail(engineOf(src), scope, goal, interval);
  return { range: rangeEcho(scope.range), goal, interval, metrics, points };
}

export async function completions(src: QuerySources, site: Site, goalId: string, q: CommonQuery & Page) {
  const goal = await getGoal(src.meta, site.id, goalId);
  const scope = noPeriodGiven(q) ? undefined : await scopeFor(src, site, q);
  return goalCompletions(src.db, engineOf(src), src.files, site.id, goal, q, scope);
}

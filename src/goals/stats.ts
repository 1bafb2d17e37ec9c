// Goal reports: resolve the common parameters and goal definitions, then run the goal queries.
import type { Database } from '../storage/database.ts';
import type { Site } from '../sites/model.ts';
import { rangeEcho } from '../query/period.ts';
import { noPeriodGiven, resolveScope, type PeriodQueryInput } from '../query/goals-scope.ts';
import { defaultInterval, type Interval } from '../query/goals-interval.ts';
import { goalCompletions, goalDetail, goalsStats } from '../query/goals.ts';
import type { Page } from '../visitors/page-query.ts';
import { getGoal, listGoals } from './service.ts';

/** Every active goal's totals; archived goals only with include_archived=true, as in the list. */
export async function allGoalStats(db: Database, site: Site, q: PeriodQueryInput & { include_archived?: string }) {
  const scope = await resolveScope(db, site, q);
  const goals = await listGoals(db, site.id, q.include_archived === 'true');
  return { range: rangeEcho(scope.range), goals: await goalsStats(db, scope, goals) };
}

export async function oneGoalStats(db: Database, site: Site, goalId: string, q: PeriodQueryInput & { interval?: Interval }) {
  const goal = await getGoal(db, site.id, goalId);
  const scope = await resolveScope(db, site, q);
  const interval = q.interval ?? defaultInterval(scope.range);
  const { metrics, points } = await goalDetail(db, scope, goal, interval);
  return { range: rangeEcho(scope.range), goal, interval, metrics, points };
}

/** All time unless a period (or filters) is given. */
export async function completions(db: Database, site: Site, goalId: string, q: PeriodQueryInput & Page) {
  const goal = await getGoal(db, site.id, goalId);
  const scope = noPeriodGiven(q) ? undefined : await resolveScope(db, site, q);
  return goalCompletions(db, site.id, goal, q, scope);
}

// The dashboard's view as a POST …/query body: its period as `date_range` (+ `date`) and its filters as query-API
// leaves, so a panel drawn from /query counts the same scope as the GET reports beside it.
import type { Filter, QueryBody } from '../../api/types.ts';
import type { ViewState } from './query-state.ts';

/** The GET reports' filter dimensions whose query-API name is event:…; every other registry dimension is visit:…. */
const EVENT_NAMES: Record<string, string> = { page: 'event:page', hostname: 'event:hostname', event_name: 'event:name', event_type: 'event:type', goal: 'event:goal' };
const PROP = 'prop:';

export const queryDimension = (dimension: string) =>
  dimension.startsWith(PROP) ? `event:props:${dimension.slice(PROP.length)}` : EVENT_NAMES[dimension] ?? `visit:${dimension}`;

export const queryFilter = (f: Filter) => [f.operator, queryDimension(f.dimension), [f.value]];

/** `date_range`, `date` and `filters` of the view (view.api holds the GET reports' period parameters). */
export function queryScope(view: ViewState): Pick<QueryBody, 'date_range' | 'date' | 'filters'> {
  const { period, date, from, to } = view.api;
  const range: QueryBody['date_range'] = period === 'custom' && from && to ? [from, to] : period ?? '30d';
  return { date_range: range, ...(date && period !== 'custom' ? { date } : {}), filters: view.filters.map(queryFilter) };
}

// The questions the query benches ask: the analytics endpoints and the three ranges (12 months, 30 days, a
// 90-day custom range with one filter), as the URL query and the Range the hand-written side reads.
import { dayRange, type Range } from '../src/query/parse/period.ts';
import { addDays, addMonths, monthEnd, monthStart, todayIn } from '../src/query/parse/calendar.ts';

export type Scenario = { name: string; query: string; range: Range; filter?: { column: string; value: string } };

export const ENDPOINTS = ['stats', 'charts', 'pages', 'sources', 'channels', 'devices', 'locations', 'revenue', 'realtime'] as const;

/** The three scenarios of the query bench, in `tz`: 12 months, 30 days, a custom 90-day range with one filter. */
export function scenarios(tz: string): Scenario[] {
  const today = todayIn(tz);
  const from90 = addDays(today, -120);
  return [
    { name: '12mo', query: 'period=12mo', range: dayRange('12mo', addMonths(monthStart(today), -11), monthEnd(today), tz) },
    { name: '30d', query: 'period=30d', range: dayRange('30d', addDays(today, -29), today, tz) },
    {
      name: '90d+filter',
      query: `period=custom&from=${from90}&to=${addDays(from90, 89)}&filters=${encodeURIComponent(JSON.stringify([{ dimension: 'country', operator: 'is', value: 'US' }]))}`,
      range: dayRange('custom', from90, addDays(from90, 89), tz),
      filter: { column: 'country', value: 'US' },
    },
  ];
}

/** The analytics URL of one endpoint and scenario for a site. */
export const endpointUrl = (base: string, orgId: string, siteId: string, endpoint: string, s: Scenario) =>
  `${base}/api/v1/organizations/${orgId}/sites/${siteId}/analytics/${endpoint}?${s.query}`;

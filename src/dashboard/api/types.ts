// The payloads the dashboard reads from the API (contract §3–§8), as TypeScript types.
export type User = { id: string; email: string; name: string | null; created_at: string };
export type Org = { id: string; name: string; plan: 'maker' | 'startup' | 'agency'; role?: string; created_at?: string };
export type Me = { user: User; organizations: Org[] };
export type Site = { id: string; public_id: string; domain: string; name: string; timezone: string; currency: string; created_at: string; retention_months?: number | null };
export type Range = { from: string; to: string; timezone: string };
export type Totals = { visitors: number; visits: number; pageviews: number; views_per_visit: number; bounce_rate: number; visit_duration: number; events: number };
export type Stats = { range: Range; metrics: Totals; previous: Totals | null; change: Record<keyof Totals, number | null> };
export type Realtime = { visitors: number; pageviews: number; pages: { name: string; visitors: number }[] };
export type Point = { date: string; visitors: number; visits: number; pageviews: number; bounce_rate: number; visit_duration: number };
export type Annotation = { id: string; date: string; text: string; created_at?: string };
export type Chart = { range: Range; interval: Interval; points: Point[]; annotations: Annotation[] };
export type Interval = 'hour' | 'day' | 'week' | 'month';
export type Pagination = { total: number; page: number; limit: number };
export type Row = {
  name: string; label?: string; visitors: number; visits: number; pageviews: number; bounce_rate: number;
  visit_duration: number; percentage: number; time_on_page?: number | null; scroll_depth?: number | null;
};
export type Breakdown = { range: Range; dimension: string; results: Row[]; pagination: Pagination };
export type RevenueTotals = { revenue: number; orders: number; average_order_value: number; purchasers: number; conversion_rate: number };
export type Revenue = { range: Range; currency: string; metrics: RevenueTotals; previous: RevenueTotals | null; change: Record<keyof RevenueTotals, number | null>; points: { date: string; revenue: number; orders: number }[] };
export type Goal = { id: string; name: string; type: 'pageview' | 'event'; path?: string | null; event_name?: string | null; value?: number | null; archived: boolean; created_at: string };
export type GoalStat = { id: string; name: string; visitors: number; completions: number; conversion_rate: number; revenue: number };
export type GoalStats = { range: Range; goals: GoalStat[] };
export type FunnelStep = { type: 'pageview' | 'event' | 'goal'; value: string; label?: string };
export type Funnel = { id: string; name: string; steps: FunnelStep[]; window: string; created_at: string };
export type FunnelAnalysis = {
  range: Range; funnel: Funnel; conversion_rate: number;
  steps: { step: number; label: string; visitors: number; conversion_rate: number; step_conversion_rate: number; dropoff: number; median_seconds_from_previous: number | null }[];
};
export type Visitor = Record<string, any> & { id: string };
export type TimelineEvent = {
  timestamp: string; event_type: string; event_name: string | null; url: string | null; path: string | null; title: string | null;
  referrer: string | null; session_id: string; properties: Record<string, unknown> | null; revenue: number | null; currency: string | null;
  country: string | null; browser: string | null; os: string | null; device: string | null;
};
export type ApiKey = { id: string; name: string; scopes: string[]; key_preview: string; created_at: string; expires_at: string | null; last_used_at?: string | null; status?: string; key?: string };
export type SharedLink = { id: string; name: string | null; token?: string; url?: string; token_preview?: string; has_password: boolean; created_at: string };
export type ShareInfo = { site: Pick<Site, 'id' | 'name' | 'domain' | 'timezone' | 'currency'>; organization_id: string; password_required: boolean };
export type Filter = { dimension: string; operator: 'is' | 'is_not' | 'contains' | 'not_contains' | 'matches' | 'not_matches'; value: string };
export type QueryBody = {
  metrics: string[]; date_range: string | [string, string]; date?: string; dimensions?: string[]; filters?: unknown[];
  order_by?: [string, 'asc' | 'desc'][]; pagination?: { limit?: number; offset?: number };
};
export type QueryAnswer = { results: { dimensions: string[]; metrics: number[] }[]; meta: { range: Range; total_rows: number } };

// The breakdown panels and their tabs: which API endpoint and dimension each tab reads, the filter a row click
// adds, and the columns it shows.
export type Column = { key: string; label: string; kind: 'number' | 'percent' | 'duration' | 'share' | 'money'; currency?: string };
export type Tab = { id: string; label: string; endpoint: string; dimension: string; filter: string; title: string; columns: Column[] };
export type PanelDef = { id: string; title: string; tabs: Tab[] };

const visitors: Column = { key: 'visitors', label: 'Visitors', kind: 'number' };
const share: Column = { key: 'percentage', label: '%', kind: 'share' };
const base = [visitors, share];
const extra: Column[] = [
  { key: 'visits', label: 'Visits', kind: 'number' },
  { key: 'pageviews', label: 'Pageviews', kind: 'number' },
  { key: 'bounce_rate', label: 'Bounce rate', kind: 'percent' },
  { key: 'visit_duration', label: 'Visit duration', kind: 'duration' },
];
const tab = (id: string, label: string, endpoint: string, dimension: string, title: string, columns: Column[] = base): Tab =>
  ({ id, label, endpoint, dimension, filter: dimension, title, columns });

export const PANELS: PanelDef[] = [
  {
    id: 'sources', title: 'Top sources',
    tabs: [
      tab('channels', 'Channels', 'channels', 'channel', 'Channel'),
      tab('sources', 'Sources', 'sources', 'source', 'Source'),
      tab('utm_medium', 'Medium', 'sources', 'utm_medium', 'UTM medium'),
      tab('utm_source', 'Source', 'sources', 'utm_source', 'UTM source'),
      tab('utm_campaign', 'Campaign', 'sources', 'utm_campaign', 'UTM campaign'),
    ],
  },
  {
    id: 'pages', title: 'Top pages',
    tabs: [
      tab('top', 'Top', 'pages', 'page', 'Page', [visitors,
        { key: 'pageviews', label: 'Views', kind: 'number' },
        { key: 'time_on_page', label: 'Time', kind: 'duration' },
        { key: 'scroll_depth', label: 'Scroll', kind: 'percent' }]),
      tab('entry', 'Entry', 'pages', 'entry_page', 'Entry page'),
      tab('exit', 'Exit', 'pages', 'exit_page', 'Exit page'),
    ],
  },
  {
    id: 'locations', title: 'Locations',
    tabs: [
      tab('map', 'Map', 'locations', 'country', 'Country'),
      tab('countries', 'Countries', 'locations', 'country', 'Country'),
      tab('regions', 'Regions', 'locations', 'region', 'Region'),
      tab('cities', 'Cities', 'locations', 'city', 'City'),
    ],
  },
  {
    id: 'devices', title: 'Devices',
    tabs: [
      tab('browsers', 'Browsers', 'devices', 'browser', 'Browser'),
      tab('os', 'Operating systems', 'devices', 'os', 'Operating system'),
      tab('screens', 'Screen sizes', 'devices', 'device', 'Screen size'),
    ],
  },
];

/** Every column a Details table offers for a tab: its own and the visit metrics. */
export const detailColumns = (t: Tab): Column[] => [...t.columns, ...extra.filter((c) => !t.columns.some((x) => x.key === c.key))];

export const DIMENSION_LABELS: Record<string, string> = {
  page: 'Page', entry_page: 'Entry page', exit_page: 'Exit page', hostname: 'Hostname', source: 'Source', referrer: 'Referrer',
  channel: 'Channel', utm_source: 'UTM source', utm_medium: 'UTM medium', utm_campaign: 'UTM campaign', utm_term: 'UTM term',
  utm_content: 'UTM content', country: 'Country', region: 'Region', city: 'City', browser: 'Browser', browser_version: 'Browser version',
  os: 'OS', os_version: 'OS version', device: 'Screen size', screen: 'Screen', event_name: 'Event', goal: 'Goal',
};

/** A filter's dimension as a person reads it (`prop:<key>` is a custom property). */
export const dimensionLabel = (d: string) => (d.startsWith('prop:') ? `Property ${d.slice(5)}` : DIMENSION_LABELS[d] ?? d);

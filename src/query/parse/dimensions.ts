// The dimension registry: every filter and breakdown dimension of contract §7/§8, the table it lives on,
// and its column there. Identifiers reach SQL only through this allow-list.

/** `visit`: an attribute of the visit (its first event) — read from the visits table.
 *  `event`: an attribute of each event — read from the events table. */
export type Level = 'visit' | 'event';

export type Dimension = {
  name: string;
  level: Level;
  /** Column on the table of its level. */
  column: string;
  /** Companion column on the other table, used to decorate breakdown rows (page ↔ entry page). */
  companion?: string;
  /** Shown for a missing value. */
  none: string;
  /**
   * Visit-level, yet the same on every event of the visit (one browser, one address), so event
   * metrics may test the event's own column instead of looking the visit up.
   */
  onEveryEvent?: boolean;
  /**
   * A small value set by nature (a few hundred at most: channels, countries, device classes…), or one where
   * a few values carry nearly every visit (sources: direct, a search engine, a few socials): a breakdown
   * counts every group exactly in one pass instead of first sizing the groups to pick candidates (the
   * sizing pass costs more than the tail it saves; sources over 12 months 543–661 → 479–588 ms).
   */
  few?: boolean;
};

const NONE = '(none)';
const visit = (name: string, column = name, none = NONE, companion?: string): Dimension => ({ name, level: 'visit', column, none, companion });
/** Location and device: derived from the address and user agent every event of a visit shares. */
const constant = (name: string): Dimension => ({ ...visit(name), onEveryEvent: true });
/** Marks a dimension `few` (one exact pass over every group in a breakdown). */
const few = (d: Dimension): Dimension => ({ ...d, few: true });
const event = (name: string, column = name, companion?: string): Dimension => ({ name, level: 'event', column, none: NONE, companion });

const ALL: Dimension[] = [
  event('page', 'path', 'entry_page'),
  visit('entry_page', 'entry_page', NONE, 'path'),
  visit('exit_page', 'exit_page', NONE, 'path'),
  event('hostname', 'hostname', 'hostname'),
  few(visit('source', 'source', 'Direct / None')),
  visit('referrer'),
  few(visit('channel')),
  visit('utm_source'),
  visit('utm_medium'),
  visit('utm_campaign'),
  visit('utm_term'),
  visit('utm_content'),
  few(constant('country')),
  constant('region'),
  constant('city'),
  few(constant('device')),
  few(constant('browser')),
  constant('browser_version'),
  few(constant('os')),
  constant('os_version'),
  few(constant('screen')),
  event('event_type'),
  event('event_name'),
];

export const DIMENSIONS: ReadonlyMap<string, Dimension> = new Map(ALL.map((d) => [d.name, d]));

/** Which breakdown dimensions each endpoint offers (contract §8), the first being its default. */
export const BREAKDOWNS = {
  pages: ['page', 'entry_page', 'exit_page', 'hostname'],
  sources: ['source', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'],
  channels: ['channel'],
  devices: ['device', 'browser', 'browser_version', 'os', 'os_version', 'screen'],
  locations: ['country', 'region', 'city'],
} as const;
export type BreakdownEndpoint = keyof typeof BREAKDOWNS;

export function dimension(name: string): Dimension {
  const d = DIMENSIONS.get(name);
  if (!d) throw new Error(`unknown dimension ${name}`);
  return d;
}

// The query API's dimension names (visit:…, event:…, time:…) → the engine's registry (parse/dimensions.ts).
// Column names reach SQL only from that registry; a property key stays a value, bound as a parameter.
import { DIMENSIONS, type Dimension } from './dimensions.ts';
import { EVENT_DIMENSIONS, TIME_DIMENSIONS, VISIT_DIMENSIONS } from './query-body.ts';
import type { Interval } from '../sql/buckets.ts';

export type QueryDim =
  | { name: string; kind: 'column'; dim: Dimension }
  | { name: string; kind: 'prop'; key: string }
  /** event:props: the keys of the custom properties an event carries (an event counts under each of its keys). */
  | { name: string; kind: 'prop_key' }
  | { name: string; kind: 'goal' }
  | { name: string; kind: 'time'; interval: Interval };

/** event:name and event:type are stored as event_name and event_type. */
const EVENT_COLUMNS: Record<string, string> = { page: 'page', hostname: 'hostname', name: 'event_name', type: 'event_type' };
const PROPS = 'event:props:';
const PROP_KEYS = 'event:props';
const MAX_KEY = 300;

/** The dimension named `name`, or a reason it is not one. */
export function queryDimension(name: unknown): QueryDim | string {
  if (typeof name !== 'string') return 'expected a dimension name (string)';
  const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name;
  if (name === PROP_KEYS) return { name, kind: 'prop_key' };
  if (name.startsWith(PROPS)) {
    const key = name.slice(PROPS.length);
    if (!key) return `'${PROPS}' needs a property key, e.g. ${PROPS}plan`;
    if (key.length > MAX_KEY) return `property key longer than ${MAX_KEY} characters`;
    return { name, kind: 'prop', key };
  }
  const [scope, rest] = [name.slice(0, name.indexOf(':')), name.slice(name.indexOf(':') + 1)];
  if (scope === 'visit' && (VISIT_DIMENSIONS as readonly string[]).includes(rest)) return { name, kind: 'column', dim: DIMENSIONS.get(rest)! };
  if (scope === 'event' && rest === 'goal') return { name, kind: 'goal' };
  if (scope === 'event' && (EVENT_DIMENSIONS as readonly string[]).includes(rest)) return { name, kind: 'column', dim: DIMENSIONS.get(EVENT_COLUMNS[rest]!)! };
  if (scope === 'time' && (TIME_DIMENSIONS as readonly string[]).includes(rest)) return { name, kind: 'time', interval: rest as Interval };
  return `unknown dimension '${shown}'`;
}

/** Event-level: counted per event (page, hostname, name, type, goal, props and their keys), not per visit. */
export const isEventDim = (d: QueryDim) => d.kind === 'prop' || d.kind === 'prop_key' || d.kind === 'goal' || (d.kind === 'column' && d.dim.level === 'event');

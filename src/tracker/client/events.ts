// Builds and sends the event payloads of spec §2.2 for the page being viewed; a pageview still waiting goes first.
import type { Config } from './config.ts';
import { optedOut } from './guards.ts';
import { send } from './send.ts';
import { sessionId, visitorUid } from './storage.ts';

export type Props = Record<string, unknown>;

let config: Config;
/** Why this page is not tracked ('' = it is), decided once at load. */
let skip = '';
let waitingView: (() => void) | undefined;

export function setupEvents(c: Config, skipReason: string) {
  config = c;
  skip = skipReason;
}

export const pageUrl = () => (config.hash ? location.href : location.href.replace(/#.*/, ''));

/** Sends the pageview that is waiting, if any. */
export function flushView() {
  const view = waitingView;
  waitingView = undefined;
  if (view) view();
}

/** Sends `view` now, or after 150 ms unless something else flushes it first. */
export function queueView(view: () => void, later?: boolean) {
  flushView();
  waitingView = view;
  later ? setTimeout(flushView, 150) : flushView();
}

export function post(path: string, payload: Props) {
  if (!skip && !optedOut()) send(config.api + '/api/v1/' + path, { site_id: config.site, ...payload });
}

export function emit(event_type: string, event_name?: string, properties?: Props, extra?: Props) {
  // Whatever happens next belongs after the pageview that is still waiting.
  flushView();
  post('event', {
    event_type,
    event_name,
    url: pageUrl(),
    referrer: document.referrer || undefined,
    title: document.title || undefined,
    visitor_uid: visitorUid(),
    session_id: sessionId(),
    screen_w: screen.width,
    screen_h: screen.height,
    properties: properties && Object.keys(properties).length ? properties : undefined,
    ...extra,
  });
}

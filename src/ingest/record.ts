// Builds the stored row of one event: validated input + enrichment + visitor/visit IDs + time.
import type { Site } from '../sites/model.ts';
import { enrich } from './enrich/index.ts';
import type { Agent } from './enrich/agent.ts';
import type { EventInput } from './validate.ts';
import type { LogRow } from './log-format.ts';
import type { Sessionizer } from './sessionizer.ts';

export type Origin = { ip: string; userAgent: string };

export function buildRow(
  site: Site, e: Omit<EventInput, 'site_id'>, origin: Origin, ids: { visitorId: number; visitId: number | null }, tsMs: number, agent?: Agent,
): LogRow {
  const x = enrich({
    url: e.url,
    referrer: e.referrer,
    userAgent: origin.userAgent,
    ip: origin.ip,
    screenWidth: e.screen_w,
    siteDomain: site.domain,
  }, agent);
  return {
    ts: tsMs,
    site_id: site.id,
    visitor_id: ids.visitorId,
    visit_id: ids.visitId,
    event_type: e.event_type,
    event_name: e.event_name,
    url: e.url,
    hostname: x.hostname,
    path: x.path,
    title: e.title,
    referrer: x.referrer,
    source: x.source,
    channel: x.channel,
    utm_source: x.utm_source,
    utm_medium: x.utm_medium,
    utm_campaign: x.utm_campaign,
    utm_term: x.utm_term,
    utm_content: x.utm_content,
    country: x.country,
    region: x.region,
    city: x.city,
    browser: x.browser,
    browser_version: x.browser_version,
    os: x.os,
    os_version: x.os_version,
    device: x.device,
    screen: x.screen,
    session_id: e.session_id,
    time_on_page: e.time_on_page,
    scroll_depth: e.scroll_depth,
    revenue: e.revenue,
    currency: e.currency,
    order_id: e.order_id,
    props: e.properties,
    // The live sessionizer (or the import's SQL) knows the visit's previous pageview; see Sessionizer.leave.
    engaged_path: null,
    engaged_hostname: null,
    uid: e.visitor_uid,
  };
}

/** A live event's row: its visit from the sessionizer and, for a pageview, the page it leaves (the engaged page). */
export function liveRow(sessions: Sessionizer, site: Site, e: Omit<EventInput, 'site_id'>, origin: Origin, agent: Agent, visitorId: number, tsMs: number): LogRow {
  const row = buildRow(site, e, origin, { visitorId, visitId: sessions.visit(visitorId, tsMs) }, tsMs, agent);
  if (row.event_type === 'pageview') sessions.leave(visitorId, row);
  return row;
}

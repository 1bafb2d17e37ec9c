// Visitor shapes (spec §2.4, contract §8): profile, list and timeline payloads.
import { z } from 'zod';
import { PageQuery } from '../http/page-query.ts';
import { PaginationSchema as Pagination } from '../http/envelope.ts';

export const VisitorSchema = z.object({
  id: z.string(),
  uid: z.string().nullable(),
  email: z.string().optional(),
  name: z.string().optional(),
  avatar_url: z.string().optional(),
  external_id: z.string().optional(),
  custom: z.record(z.string(), z.unknown()).optional(),
  first_seen_at: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  total_sessions: z.number(),
  total_pageviews: z.number(),
  total_goals: z.number(),
  total_revenue: z.number(),
  last_country: z.string().nullable(),
  last_browser: z.string().nullable(),
  last_os: z.string().nullable(),
  last_device: z.string().nullable(),
  last_referrer_source: z.string().nullable(),
});
export type Visitor = z.infer<typeof VisitorSchema>;

export const VisitorListQuery = PageQuery.extend({ search: z.string().trim().max(200).optional() });
export const VisitorListSchema = z.object({ visitors: z.array(VisitorSchema), pagination: Pagination });

export const TimelineEventSchema = z.object({
  timestamp: z.string(),
  event_type: z.string(),
  event_name: z.string().nullable(),
  url: z.string().nullable(),
  path: z.string().nullable(),
  title: z.string().nullable(),
  referrer: z.string().nullable(),
  session_id: z.string().nullable(),
  properties: z.record(z.string(), z.string()),
  revenue: z.number().nullable(),
  currency: z.string().nullable(),
  country: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.string().nullable(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;
export const TimelineSchema = z.object({ visitor: VisitorSchema, events: z.array(TimelineEventSchema), pagination: Pagination });

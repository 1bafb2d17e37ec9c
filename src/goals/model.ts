// Goal shapes (contract §8): a pageview goal matches a path glob, an event goal an event name.
import { z } from 'zod';
import { PaginationSchema } from '../http/envelope.ts';

export const GOAL_TYPES = ['pageview', 'event'] as const;

const Name = z.string().trim().min(1).max(200);
const Path = z.string().trim().min(1).max(2000).regex(/^\//, "must start with '/'");
const EventName = z.string().trim().min(1).max(200);
const Value = z.number().min(0).max(1e12);

export const GoalSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(GOAL_TYPES),
  path: z.string().optional(),
  event_name: z.string().optional(),
  value: z.number().optional(),
  archived: z.boolean(),
  created_at: z.string(),
});
export type Goal = z.infer<typeof GoalSchema>;

export const CreateGoalBody = z
  .object({ name: Name, type: z.enum(GOAL_TYPES), path: Path.optional(), event_name: EventName.optional(), value: Value.optional() })
  .superRefine((b, ctx) => {
    if (b.type === 'pageview' && b.path === undefined) ctx.addIssue({ code: 'custom', path: ['path'], message: 'is required for a pageview goal' });
    if (b.type === 'pageview' && b.event_name !== undefined) ctx.addIssue({ code: 'custom', path: ['event_name'], message: 'is only allowed on an event goal' });
    if (b.type === 'event' && b.event_name === undefined) ctx.addIssue({ code: 'custom', path: ['event_name'], message: 'is required for an event goal' });
    if (b.type === 'event' && b.path !== undefined) ctx.addIssue({ code: 'custom', path: ['path'], message: 'is only allowed on a pageview goal' });
  });
export type CreateGoal = z.infer<typeof CreateGoalBody>;

/** `value: null` clears the value; path/event_name must fit the goal's type (checked in the service). */
export const PatchGoalBody = z.object({ name: Name.optional(), path: Path.optional(), event_name: EventName.optional(), value: Value.nullable().optional() });
export type PatchGoal = z.infer<typeof PatchGoalBody>;

export const GoalListQuery = z.object({ include_archived: z.enum(['true', 'false']).optional() });

/** The echoed range of every report (contract §7). */
export const RangeSchema = z.object({ from: z.string(), to: z.string(), timezone: z.string() });
const Metrics = { visitors: z.number(), completions: z.number(), conversion_rate: z.number(), revenue: z.number() };
export const GoalsStatsSchema = z.object({ range: RangeSchema, goals: z.array(z.object({ id: z.string(), name: z.string(), ...Metrics })) });
export const GoalStatsSchema = z.object({
  range: RangeSchema,
  goal: GoalSchema,
  interval: z.string(),
  metrics: z.object(Metrics),
  points: z.array(z.object({ date: z.string(), visitors: z.number(), completions: z.number(), revenue: z.number() })),
});
export const CompletionsSchema = z.object({
  completions: z.array(z.object({ timestamp: z.string(), visitor_id: z.string().nullable(), page: z.string().nullable(), event_name: z.string().nullable(), revenue: z.number() })),
  pagination: PaginationSchema,
});

// Funnel shapes (contract §8): 2–8 ordered steps and a conversion window.
import { z } from 'zod';
import { RangeSchema } from '../goals/model.ts';
import { FUNNEL_WINDOWS } from '../query/reports/funnels.ts';

export const StepSchema = z.object({
  type: z.enum(['pageview', 'event', 'goal']),
  /** pageview: a path glob like goals ('*' one segment, '**' any depth); event: an event name; goal: a goal id. */
  value: z.string().trim().min(1).max(2000),
  label: z.string().trim().min(1).max(200).optional(),
});
export type FunnelStep = z.infer<typeof StepSchema>;

const Steps = z
  .array(StepSchema)
  .min(2)
  .max(8)
  .superRefine((steps, ctx) => {
    steps.forEach((s, i) => {
      if (s.type === 'pageview' && !s.value.startsWith('/')) ctx.addIssue({ code: 'custom', path: [i, 'value'], message: "a pageview step's path must start with '/'" });
    });
  });
const Name = z.string().trim().min(1).max(200);
const Window = z.enum(FUNNEL_WINDOWS);

export const FunnelSchema = z.object({
  id: z.string(),
  name: z.string(),
  steps: z.array(StepSchema),
  window: Window,
  created_at: z.string(),
});
export type Funnel = z.infer<typeof FunnelSchema>;

export const CreateFunnelBody = z.object({ name: Name, steps: Steps, window: Window.default('session') });
export type CreateFunnel = z.infer<typeof CreateFunnelBody>;
export const PatchFunnelBody = z.object({ name: Name.optional(), steps: Steps.optional(), window: Window.optional() });
export type PatchFunnel = z.infer<typeof PatchFunnelBody>;

export const AnalysisSchema = z.object({
  range: RangeSchema,
  funnel: FunnelSchema,
  steps: z.array(z.object({
    step: z.number(),
    label: z.string(),
    visitors: z.number(),
    conversion_rate: z.number(),
    step_conversion_rate: z.number(),
    dropoff: z.number(),
    median_seconds_from_previous: z.number().nullable(),
  })),
  conversion_rate: z.number(),
});

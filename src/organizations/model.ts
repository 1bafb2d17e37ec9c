// Organization shapes (contract §3).
import { z } from 'zod';

export const PlanSchema = z.enum(['maker', 'startup', 'agency']);
export type Plan = z.infer<typeof PlanSchema>;

export const OrganizationSchema = z.object({ id: z.string(), name: z.string(), plan: PlanSchema, created_at: z.string() });
export type Organization = z.infer<typeof OrganizationSchema>;

export const CreateOrganizationBody = z.object({ name: z.string().trim().min(1).max(200), plan: PlanSchema.optional() });
export const PatchOrganizationBody = z.object({ name: z.string().trim().min(1).max(200).optional(), plan: PlanSchema.optional() });

// Request and response shapes of register, login, logout and me (contract §3).
import { z } from 'zod';
import { OrganizationSchema, PlanSchema } from '../organizations/model.ts';

export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const RegisterBody = z.object({
  email: z.email().max(254),
  password: z.string().min(8).max(1024),
  name: z.string().min(1).max(200).optional(),
});

export const LoginBody = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
});

export const RegisterResult = z.object({ user: UserSchema, organization: OrganizationSchema, token: z.string(), expires_at: z.string() });
export const LoginResult = z.object({ user: UserSchema, token: z.string(), expires_at: z.string() });
export const MeResult = z.object({
  user: UserSchema,
  organizations: z.array(z.object({ id: z.string(), name: z.string(), plan: PlanSchema, role: z.string() })),
});

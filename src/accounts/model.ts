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
  cookie: z.boolean().optional().describe('true: the session goes into the HttpOnly `tern_session` cookie and the body leaves out `token`'),
});

export const LoginBody = z.object({
  email: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
  cookie: z.boolean().optional().describe('true: the session goes into the HttpOnly `tern_session` cookie and the body leaves out `token`'),
});

const SessionToken = z.string().optional().describe('The session token; absent when it was set as the `tern_session` cookie');
export const RegisterResult = z.object({ user: UserSchema, organization: OrganizationSchema, token: SessionToken, expires_at: z.string() });
export const LoginResult = z.object({ user: UserSchema, token: SessionToken, expires_at: z.string() });
export const MeResult = z.object({
  user: UserSchema,
  organizations: z.array(z.object({ id: z.string(), name: z.string(), plan: PlanSchema, role: z.string() })),
});

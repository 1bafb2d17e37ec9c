// API key shapes and the scope table (spec §2.1, §5.3; contract §4).
import { z } from 'zod';

export const SCOPES = [
  'analytics:read',
  'sites:read',
  'goals:read',
  'goals:write',
  'funnels:read',
  'funnels:write',
  'annotations:read',
  'annotations:write',
  'visitors:read',
] as const;
export const ScopeSchema = z.enum(SCOPES);
export type KeyScope = z.infer<typeof ScopeSchema>;

export const CreateKeyBody = z.object({
  name: z.string().trim().min(1).max(200),
  scopes: z.array(ScopeSchema).min(1).max(SCOPES.length),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(ScopeSchema),
  key_preview: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  status: z.enum(['active', 'expired']),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;
export const CreatedKeySchema = ApiKeySchema.omit({ last_used_at: true, status: true }).extend({ key: z.string() });
export const RevokedKeySchema = z.object({ id: z.string(), status: z.literal('revoked') });

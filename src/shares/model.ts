// Request and response shapes of shared links: their management (session) and their public side (/api/v1/share).
import { z } from 'zod';

export const CreateLinkBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  password: z.string().min(8).max(200).optional().describe('Asked before the dashboard shows; stored as a scrypt hash'),
});

export const SharedLinkSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  has_password: z.boolean(),
  created_at: z.string(),
  token_preview: z.string().describe('`****` and the last 4 characters of the token'),
});
export type SharedLink = z.infer<typeof SharedLinkSchema>;

export const CreatedLinkSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  token: z.string().describe('shl_ and 32 hex characters (128 random bits): in this response only'),
  url: z.string().describe('The dashboard page of the link, relative to this server: /share/<token>'),
  has_password: z.boolean(),
  created_at: z.string(),
});

export const RevokedLinkSchema = z.object({ id: z.string(), status: z.literal('revoked') });

export const ShareInfoSchema = z.object({
  site: z.object({ id: z.string(), name: z.string(), domain: z.string(), timezone: z.string(), currency: z.string() }),
  organization_id: z.string(),
  password_required: z.boolean(),
});

export const UnlockBody = z.object({ password: z.string().min(1).max(200) });
export const UnlockResult = z.object({
  token: z.string().describe('shs_…: send as `Authorization: Bearer` to the analytics endpoints of the link’s site'),
  expires_at: z.string(),
});

// Site shapes (contract §3) and the validators for time zone and currency codes.
import { z } from 'zod';

// A zone name, not an offset: Intl takes `+05:30`, but DuckDB's timezone() (every report of the site) does not.
const isTimeZone = (tz: string) => {
  if (!/^[A-Za-z]/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const currencies = new Set(Intl.supportedValuesOf('currency'));

export const TimezoneSchema = z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin');
export const CurrencySchema = z.string().transform((c) => c.toUpperCase()).refine((c) => currencies.has(c), 'must be an ISO 4217 currency code such as USD');
const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})*$/, 'must be a bare host name such as example.com');

export const SiteSchema = z.object({
  id: z.string(),
  public_id: z.string(),
  domain: z.string(),
  name: z.string(),
  timezone: z.string(),
  currency: z.string(),
  created_at: z.string(),
  retention_months: z.number().int().nullable().describe('Months of analytics data kept (null: forever); older data is deleted by compaction'),
});
export type Site = z.infer<typeof SiteSchema> & { org_id: string };

export const CreateSiteBody = z.object({
  domain: DomainSchema,
  name: z.string().trim().min(1).max(200).optional(),
  timezone: TimezoneSchema.optional(),
  currency: CurrencySchema.optional(),
});
export const PatchSiteBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: TimezoneSchema.optional(),
  currency: CurrencySchema.optional(),
  retention_months: z.number().int().min(1).max(120).nullable().optional()
    .describe('1–120: events and visits older than this many months (rolling, whole UTC days) are deleted at the next compaction; null keeps everything'),
});

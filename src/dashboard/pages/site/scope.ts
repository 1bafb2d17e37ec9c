// What a dashboard view works on: the API client (session or shared-link token), the organization and site,
// whether it is a shared (read-only) view, and the URL prefix of its pages.
import type { Api } from '../../api/client.ts';
import type { Site } from '../../api/types.ts';

export type Scope = { api: Api; orgId: string; site: Site; shared: boolean; base: string; embed?: boolean };

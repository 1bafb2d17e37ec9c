// The one typed client of Tern's API: same-origin fetches carrying the session cookie (or a shared link's token),
// the {success, data} envelope unwrapped, errors turned into ApiError with a message a person can act on.
import type * as T from './types.ts';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** What an error means to the person looking at the panel it hit. */
export function explain(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error && e.name === 'AbortError' ? '' : 'Could not reach the server. Check your connection and retry.';
  if (e.status === 402) return `This needs a paid plan: ${e.message}.`;
  if (e.status === 404) return `Not found: ${e.message}. It may have been deleted, or you may no longer have access.`;
  if (e.status === 429) return 'Too many requests right now. Wait a few seconds and reload.';
  if (e.status >= 500) return 'The server had a problem answering. Try again in a moment.';
  return e.message;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export type ClientOptions = { bearer?: () => string | undefined; onUnauthorized?: () => void };

export function createClient(opts: ClientOptions = {}) {
  async function call<R>(method: string, path: string, body?: unknown, query?: Query, signal?: AbortSignal): Promise<R> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    const headers: Record<string, string> = {};
    const bearer = opts.bearer?.();
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const qs = q.toString();
    const res = await fetch(`/api/v1${path}${qs ? `?${qs}` : ''}`, {
      method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body), signal,
    });
    let json: any = null;
    try {
      json = await res.json();
    } catch (e) {
      // A read cut by the caller's abort (the page moved on) is not an answer: an empty `data` would reach callers.
      if (signal?.aborted) throw e;
      // A non-JSON answer (a proxy's error page) still becomes an ApiError below.
    }
    if (!res.ok) {
      if (res.status === 401) opts.onUnauthorized?.();
      throw new ApiError(res.status, json?.error ?? `HTTP ${res.status}`);
    }
    return json?.data as R;
  }
  const get = <R>(path: string, query?: Query, signal?: AbortSignal) => call<R>('GET', path, undefined, query, signal);
  const org = (orgId: string) => `/organizations/${orgId}`;
  const site = (orgId: string, siteId: string) => `${org(orgId)}/sites/${siteId}`;

  return {
    call,
    get,
    auth: {
      login: (email: string, password: string) => call<{ user: T.User }>('POST', '/auth/login', { email, password, cookie: true }),
      register: (email: string, password: string, name?: string) =>
        call<{ user: T.User; organization: T.Org }>('POST', '/auth/register', { email, password, name, cookie: true }),
      logout: () => call<{}>('POST', '/auth/logout'),
      me: () => get<T.Me>('/auth/me'),
    },
    orgs: {
      patch: (orgId: string, body: { name?: string; plan?: string }) => call<T.Org>('PATCH', org(orgId), body),
    },
    sites: {
      list: (orgId: string) => get<{ sites: T.Site[] }>(`${org(orgId)}/sites`),
      get: (orgId: string, siteId: string) => get<T.Site>(site(orgId, siteId)),
      create: (orgId: string, body: { domain: string; name?: string; timezone?: string; currency?: string }) => call<T.Site>('POST', `${org(orgId)}/sites`, body),
      patch: (orgId: string, siteId: string, body: { name?: string; timezone?: string; currency?: string; retention_months?: number | null }) => call<T.Site>('PATCH', site(orgId, siteId), body),
      /** The export's URL: fetched by the browser as a download (streamed to disk), with the session cookie. */
      exportUrl: (orgId: string, siteId: string, q: { table: string; format: string; from: string; to: string }) => `/api/v1${site(orgId, siteId)}/export?${new URLSearchParams(q)}`,
      remove: (orgId: string, siteId: string) => call<{ id: string }>('DELETE', site(orgId, siteId)),
    },
    analytics: {
      stats: (o: string, s: string, q: Query, sig?: AbortSignal) => get<T.Stats>(`${site(o, s)}/analytics/stats`, q, sig),
      realtime: (o: string, s: string, sig?: AbortSignal) => get<T.Realtime>(`${site(o, s)}/analytics/realtime`, undefined, sig),
      charts: (o: string, s: string, q: Query, sig?: AbortSignal) => get<T.Chart>(`${site(o, s)}/analytics/charts`, q, sig),
      revenue: (o: string, s: string, q: Query, sig?: AbortSignal) => get<T.Revenue>(`${site(o, s)}/analytics/revenue`, q, sig),
      breakdown: (o: string, s: string, endpoint: string, q: Query, sig?: AbortSignal) => get<T.Breakdown>(`${site(o, s)}/analytics/${endpoint}`, q, sig),
      query: (o: string, s: string, body: T.QueryBody, sig?: AbortSignal) => call<T.QueryAnswer>('POST', `${site(o, s)}/query`, body, undefined, sig),
    },
    goals: {
      list: (o: string, s: string, includeArchived = false) => get<{ goals: T.Goal[] }>(`${site(o, s)}/goals`, { include_archived: includeArchived || undefined }),
      create: (o: string, s: string, body: Partial<T.Goal>) => call<T.Goal>('POST', `${site(o, s)}/goals`, body),
      patch: (o: string, s: string, id: string, body: Partial<T.Goal>) => call<T.Goal>('PATCH', `${site(o, s)}/goals/${id}`, body),
      archive: (o: string, s: string, id: string, archived: boolean) => call<T.Goal>('POST', `${site(o, s)}/goals/${id}/${archived ? 'archive' : 'unarchive'}`),
      stats: (o: string, s: string, q: Query, sig?: AbortSignal) => get<T.GoalStats>(`${site(o, s)}/goals/stats`, q, sig),
    },
    funnels: {
      list: (o: string, s: string) => get<{ funnels: T.Funnel[] }>(`${site(o, s)}/funnels`),
      create: (o: string, s: string, body: Omit<T.Funnel, 'id' | 'created_at'>) => call<T.Funnel>('POST', `${site(o, s)}/funnels`, body),
      patch: (o: string, s: string, id: string, body: Partial<T.Funnel>) => call<T.Funnel>('PATCH', `${site(o, s)}/funnels/${id}`, body),
      remove: (o: string, s: string, id: string) => call<{ id: string }>('DELETE', `${site(o, s)}/funnels/${id}`),
      analysis: (o: string, s: string, id: string, q: Query, sig?: AbortSignal) => get<T.FunnelAnalysis>(`${site(o, s)}/funnels/${id}/analysis`, q, sig),
    },
    annotations: {
      list: (o: string, s: string) => get<{ annotations: T.Annotation[] }>(`${site(o, s)}/annotations`),
      create: (o: string, s: string, body: { date: string; text: string }) => call<T.Annotation>('POST', `${site(o, s)}/annotations`, body),
      remove: (o: string, s: string, id: string) => call<{ id: string }>('DELETE', `${site(o, s)}/annotations/${id}`),
    },
    visitors: {
      list: (o: string, s: string, q: Query) => get<{ visitors: T.Visitor[]; pagination: T.Pagination }>(`${site(o, s)}/visitors`, q),
      timeline: (o: string, s: string, id: string, q: Query) =>
        get<{ visitor: T.Visitor; events: T.TimelineEvent[]; pagination: T.Pagination }>(`${site(o, s)}/visitors/${encodeURIComponent(id)}/timeline`, q),
    },
    keys: {
      list: (o: string) => get<{ api_keys: T.ApiKey[] }>(`${org(o)}/api-keys`),
      create: (o: string, body: { name: string; scopes: string[]; expires_at?: string }) => call<T.ApiKey>('POST', `${org(o)}/api-keys`, body),
      revoke: (o: string, id: string) => call<{ id: string }>('DELETE', `${org(o)}/api-keys/${id}`),
    },
    sharedLinks: {
      list: (o: string, s: string) => get<{ shared_links: T.SharedLink[] }>(`${site(o, s)}/shared-links`),
      create: (o: string, s: string, body: { name: string; password?: string }) => call<T.SharedLink>('POST', `${site(o, s)}/shared-links`, body),
      remove: (o: string, s: string, id: string) => call<{ id: string }>('DELETE', `${site(o, s)}/shared-links/${id}`),
    },
    share: {
      info: (token: string) => get<T.ShareInfo>(`/share/${encodeURIComponent(token)}`),
      unlock: (token: string, password: string) => call<{ token: string; expires_at: string }>('POST', `/share/${encodeURIComponent(token)}/unlock`, { password }),
    },
  };
}

export type Api = ReturnType<typeof createClient>;

// A small HTTP client for tests: JSON in, {status, body, headers} out, plus account/site/key set-up.
export type Res<T = any> = { status: number; body: T; headers: Headers; text: string };

export function client(base: string) {
  const call = async <T = any>(method: string, path: string, opts: { token?: string; body?: unknown; raw?: BodyInit; headers?: Record<string, string> } = {}): Promise<Res<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined = opts.raw;
    if (opts.body !== undefined) { headers['content-type'] ??= 'application/json'; body = JSON.stringify(opts.body); }
    const r = await fetch(base + path, { method, headers, body });
    const text = await r.text();
    let parsed: any = text;
    try { parsed = JSON.parse(text); } catch {}
    return { status: r.status, body: parsed, headers: r.headers, text };
  };
  return {
    call,
    get: <T = any>(p: string, token?: string) => call<T>('GET', p, { token }),
    post: <T = any>(p: string, body?: unknown, token?: string) => call<T>('POST', p, { body, token }),
    patch: <T = any>(p: string, body?: unknown, token?: string) => call<T>('PATCH', p, { body, token }),
    del: <T = any>(p: string, token?: string) => call<T>('DELETE', p, { token }),
  };
}

let seq = 0;
/** Registers a fresh user (own organization), creates a site, and optionally an API key with scopes. */
export async function setupAccount(base: string, opts: { scopes?: string[]; timezone?: string; domain?: string } = {}) {
  const api = client(base);
  const email = `user${Date.now()}-${seq++}@example.com`;
  const reg = await api.post('/api/v1/auth/register', { email, password: 'correct horse', name: 'Test' });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.text}`);
  const token: string = reg.body.data.token;
  const orgId: string = reg.body.data.organization.id;
  const site = await api.post(`/api/v1/organizations/${orgId}/sites`, { domain: opts.domain ?? 'example.com', timezone: opts.timezone ?? 'UTC' }, token);
  if (site.status !== 201) throw new Error(`site failed: ${site.text}`);
  let key: string | undefined;
  if (opts.scopes) {
    const k = await api.post(`/api/v1/organizations/${orgId}/api-keys`, { name: 'test', scopes: opts.scopes }, token);
    if (k.status !== 201) throw new Error(`key failed: ${k.text}`);
    key = k.body.data.key;
  }
  return { api, email, token, orgId, site: site.body.data as { id: string; public_id: string; timezone: string }, key: key! };
}

export type Account = Awaited<ReturnType<typeof setupAccount>>;

/** An analytics report of the account's site (`path` after analytics/, with its query), which must answer 200. */
export async function siteReport(acct: Account, path: string) {
  const r = await acct.api.get(`/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/${path}`, acct.token);
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${r.text}`);
  return r.body.data;
}

/** Every report in `paths` of `a` equals that of `b` (the same events stored another way); `expect` is bun:test's. */
export async function sameReports(expect: (v: unknown) => { toEqual(v: unknown): void }, a: Account, b: Account, paths: string[]) {
  for (const path of paths) expect({ path, report: await siteReport(a, path) }).toEqual({ path, report: await siteReport(b, path) });
}

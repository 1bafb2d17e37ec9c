// The analytics fixture (Berlin, a DST day) with two goals, and a POST /query client for the query API tests.
import { loadFixture } from '../analytics/setup.ts';

export type QueryFixture = Awaited<ReturnType<typeof loadQueryFixture>>;

/** October 2025 in Berlin: every fixture event. */
export const OCTOBER = ['2025-10-01', '2025-10-31'];

export async function loadQueryFixture() {
  const f = await loadFixture();
  const goal = async (body: Record<string, unknown>) => {
    const r = await f.acc.api.post(`${f.sitePath}/goals`, body, f.acc.token);
    if (r.status !== 201) throw new Error(r.text);
    return r.body.data.id as string;
  };
  const goals = { signup: await goal({ name: 'Signup', type: 'event', event_name: 'Signup' }), pricing: await goal({ name: 'Visit pricing', type: 'pageview', path: '/pricing' }) };
  /** POST /query with the API key; `headers` and `search` (e.g. format=csv) as given. */
  const query = (body: unknown, opts: { headers?: Record<string, string>; search?: string } = {}) =>
    f.acc.api.call('POST', `${f.sitePath}/query${opts.search ?? ''}`, { body, token: f.acc.key, headers: opts.headers });
  /** The data of a 200 answer (fails with the body otherwise). */
  const data = async (body: Record<string, unknown>) => {
    const r = await query({ date_range: OCTOBER, ...body });
    if (r.status !== 200) throw new Error(`${JSON.stringify(body)} → ${r.status} ${r.text}`);
    return r.body.data;
  };
  /** Rows as [dimension values…, metric values…]. */
  const table = async (body: Record<string, unknown>) => (await data(body)).results.map((r: any) => [...r.dimensions, ...r.metrics]);
  return { ...f, goals, query, qdata: data, table };
}

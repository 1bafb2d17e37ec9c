// Live traffic beside other work (bench/import.ts --probe-live): a pageview to a site every 250 ms until `done()`,
// each followed until the site's realtime report counts it; reports how long they took to show.
import { sendEvent } from '../test/helpers/inspect-db.ts';
import type { setupAccount } from '../test/helpers/api.ts';

type Account = Awaited<ReturnType<typeof setupAccount>>;

/** Resolves to a line: events sent, and the p50 and max of their time to show (each counted in order). */
export async function probeLive(url: string, acct: Account, done: () => boolean): Promise<string> {
  const sent: number[] = [];
  const shown: number[] = [];
  const realtime = `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/analytics/realtime`;
  const send = async () => {
    const status = await sendEvent(url, { site_id: acct.site.public_id, url: `https://probe.example/p/${sent.length}`, event_type: 'pageview', visitor_uid: `probe-${sent.length}` });
    if (status !== 202) throw new Error(`live event answered ${status}`);
    sent.push(Date.now());
  };
  const poll = async () => {
    const r = await acct.api.get(realtime, acct.token);
    const n = Number(r.body.data?.pageviews ?? 0);
    while (shown.length < Math.min(n, sent.length)) shown.push(Date.now() - sent[shown.length]!);
  };
  let stop = false;
  const sender = (async () => { while (!stop) { await send(); await Bun.sleep(250); } })();
  while (!done()) { await poll(); await Bun.sleep(100); }
  stop = true;
  await sender;
  const until = Date.now() + 120_000;
  while (shown.length < sent.length && Date.now() < until) { await poll(); await Bun.sleep(100); }
  const sorted = [...shown].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return `${sent.length} sent, ${shown.length} shown; time to show p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1) ?? NaN} ms`;
}

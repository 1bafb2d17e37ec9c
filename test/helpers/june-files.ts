// Where the compaction tests start: a stopped server whose store holds one site with three one-visit Parquet
// files of June 2026 (each import compacts; three files are not yet a merge).
import { startServer } from './server.ts';
import { setupAccount } from './api.ts';
import { importAll } from './import.ts';

export const juneLine = (ts: string, uid: string) => ({ url: 'https://example.com/', timestamp: ts, visitor_uid: uid, user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' });

export async function threeJuneFiles() {
  const srv = await startServer();
  const acct = await setupAccount(srv.url);
  for (let i = 1; i <= 3; i++) await importAll(srv.url, acct, [juneLine(`2026-06-0${i}T12:00:00Z`, `u${i}`)]);
  await srv.stop();
  return { srv, acct, site: acct.site.id };
}

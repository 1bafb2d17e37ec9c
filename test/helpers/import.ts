// The one way tests import NDJSON events: POST the lines to a site's real import endpoint, as a client would.
import { client } from './api.ts';

/** The account (from setupAccount) whose credential imports, and the site the events go to. */
export type ImportAccount = { token: string; orgId: string; site: { id: string } };

/**
 * POSTs `lines` (objects as JSON, strings as they are) one per line to the server at `url`, as it answers.
 * `newlineAtEnd`: end the body with a newline, as a file written line by line does.
 */
export async function importLines(url: string, acct: ImportAccount, lines: (object | string)[], opts: { newlineAtEnd?: boolean } = {}) {
  const body = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');
  const res = await client(url).call('POST', `/api/v1/organizations/${acct.orgId}/sites/${acct.site.id}/events/import`, {
    token: acct.token,
    raw: opts.newlineAtEnd ? body + '\n' : body,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  return { status: res.status, body: res.body };
}

/** Imports `lines` and fails unless every one was accepted; the import's result. */
export async function importAll(url: string, acct: ImportAccount, lines: object[]) {
  const res = await importLines(url, acct, lines, { newlineAtEnd: true });
  if (res.status !== 200 || res.body.data?.rejected !== 0) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

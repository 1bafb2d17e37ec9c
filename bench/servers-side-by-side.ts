// Old code vs new on the same stored data (not a test): starts the server of a baseline worktree (`--base`, e.g. a
// `git worktree` of main with its own copy of the query benchmark's store: tern.duckdb copied, parquet/ hard-linked)
// and this tree's, asks each the same analytics requests alternately, and prints per request whether the answers are
// byte-identical, the p50 time and the p50 server CPU per request (Linux /proc; 10 ms ticks), old → new.
// Usage: bun bench/servers-side-by-side.ts --base /work/wt-base [--runs 5] [--memory 8GB] 'analytics/channels?period=12mo&dimension=channel' …
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../test/helpers/server.ts';

const { values: args, positionals: paths } = parseArgs({ options: { base: { type: 'string' }, runs: { type: 'string', default: '5' }, memory: { type: 'string', default: '2GB' } }, allowPositionals: true });
if (!args.base || !paths.length) {
  console.error('usage: bun bench/servers-side-by-side.ts --base <worktree> [--runs N] <path under the site>…');
  process.exit(1);
}
const runs = Number(args.runs);
const here = join(import.meta.dir, '..');
const dataOf = (root: string) => join(root, 'bench', 'out', 'query-data');
const meta = JSON.parse(readFileSync(join(dataOf(here), 'bench.json'), 'utf8')) as { orgId: string; siteId: string; token: string };
const cpuOf = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const { startServer: startBase } = (await import(join(args.base, 'test', 'helpers', 'server.ts'))) as { startServer: typeof startServer };
const servers = [
  { name: 'old', srv: await startBase({ dataDir: dataOf(args.base), env: { DUCKDB_MEMORY_LIMIT: args.memory! } }) },
  { name: 'new', srv: await startServer({ dataDir: dataOf(here), env: { DUCKDB_MEMORY_LIMIT: args.memory! } }) },
];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ratios: number[] = [];
try {
  for (const path of paths) {
    const ask = (url: string) => fetch(`${url}/api/v1/organizations/${meta.orgId}/sites/${meta.siteId}/${path}`, { headers: { authorization: `Bearer ${meta.token}` } }).then((r) => r.text());
    const answers: string[] = [];
    for (const s of servers) { await ask(s.srv.url); answers.push(await ask(s.srv.url)); }
    const t = { old: [] as number[], new: [] as number[] }, c = { old: [] as number[], new: [] as number[] };
    for (let i = 0; i < runs; i++) {
      for (const s of i % 2 ? [...servers].reverse() : servers) {
        const [c0, t0] = [cpuOf(s.srv.proc.pid), performance.now()];
        await ask(s.srv.url);
        t[s.name as 'old' | 'new'].push(performance.now() - t0);
        c[s.name as 'old' | 'new'].push(cpuOf(s.srv.proc.pid) - c0);
      }
    }
    ratios.push(p50(t.new) / p50(t.old));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    console.log(`${path}\n  ${answers[0] === answers[1] ? 'same answer' : 'DIFFERENT ANSWERS'}  ms ${p50(t.old).toFixed(0)} → ${p50(t.new).toFixed(0)}  `
      + `CPU ms ${p50(c.old)} → ${p50(c.new)} (total ${(sum(c.new) / Math.max(1, sum(c.old))).toFixed(2)}×)`);
  }
  console.log(`p50 new / old over ${ratios.length} requests: geometric mean ${Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length).toFixed(3)}, `
    + `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  for (const s of servers) await s.srv.stop();
}

// ClickHouse as the analytics store: Tern creates its tables in ClickHouse (chdb in process) and loads every
// sealed batch into them; the cluster DDL of docs/scaling.md is parsed by the same engine.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../helpers/server.ts';
import { setupAccount } from '../../helpers/api.ts';
import { importAll } from '../../helpers/import.ts';
import { withTempStore } from '../../helpers/temp-store.ts';
import { CHDB, chdbClient, chRows, sayIfNoChdb } from '../../helpers/chdb.ts';
import { FIXTURE } from '../../analytics/fixture.ts';
import { clusterDdl, columnsOf, deleteRowsSql, schemaStatements } from '../../../src/storage/clickhouse/schema.ts';

sayIfNoChdb('test/storage/clickhouse/load.test.ts');
const store = withTempStore('tern-ch-ddl-');

describe.skipIf(!CHDB)('ClickHouse store', () => {
  test('the cluster DDL (ReplicatedMergeTree shards behind Distributed tables) parses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tern-chdb-'));
    const ch = chdbClient(dir);
    try {
      const ddl = await clusterDdl(store.db, 'tern', 'tern_cluster');
      expect(ddl.length).toBe(6);
      for (const q of ddl) {
        const [row] = await chRows<{ f: string }>(ch, 'SELECT formatQuery({q:String}) AS f', { q });
        expect(row!.f).toContain('CREATE');
      }
      expect(ddl.join('\n')).toMatch(/ReplicatedMergeTree\('\/clickhouse\/tables\/\{shard\}\/tern\/events_local', '\{replica\}'\)/);
      expect(ddl.join('\n')).toContain('ENGINE = Distributed(tern_cluster, tern, visits_local, intHash64(visitor_id))');
    } finally {
      await ch.close();
    }
  });

  test('with CLICKHOUSE_CLUSTER, Tern creates and migrates the cluster layout ON CLUSTER and deletes on the shard tables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tern-chdb-'));
    const ch = chdbClient(dir);
    try {
      const cols = { events: await columnsOf(store.db, 'events'), visits: await columnsOf(store.db, 'visits') };
      const statements = [...schemaStatements(cols, 'tern', 'tern_cluster'), deleteRowsSql('tern', 'events', 'tern_cluster'), deleteRowsSql('tern', 'visits', 'tern_cluster')];
      // ClickHouse's own parser reads each (a cluster's distributed DDL needs Keeper, which chdb has not).
      for (const q of statements) {
        const [row] = await chRows<{ f: string }>(ch, 'SELECT formatQuery({q:String}) AS f', { q });
        expect(row!.f.length).toBeGreaterThan(0);
        expect(q).toContain('ON CLUSTER tern_cluster');
      }
      expect(statements.slice(0, 6)).toEqual(await clusterDdl(store.db, 'tern', 'tern_cluster'));
      // A new column reaches the shard tables and the Distributed tables over them.
      for (const name of ['events_local', 'events', 'visits_local', 'visits']) {
        expect(statements).toContain(`ALTER TABLE tern.${name} ON CLUSTER tern_cluster ADD COLUMN IF NOT EXISTS \`visitor_id\` Int64`);
      }
      expect(deleteRowsSql('tern', 'events', 'tern_cluster')).toBe('DELETE FROM tern.events_local ON CLUSTER tern_cluster WHERE _file IN {paths:Array(String)}');
      expect(deleteRowsSql('tern', 'events')).toBe('DELETE FROM tern.events WHERE _file IN {paths:Array(String)}');
    } finally {
      await ch.close();
    }
  });

  test('every sealed batch is loaded into MergeTree tables partitioned by month and ordered by site and time', async () => {
    const chPath = mkdtempSync(join(tmpdir(), 'tern-chdb-'));
    const srv = await startServer({ env: { CLICKHOUSE_URL: `chdb:${chPath}` } });
    let siteId: string;
    try {
      const acc = await setupAccount(srv.url, { timezone: 'Europe/Berlin', scopes: ['analytics:read'] });
      siteId = acc.site.id;
      await importAll(srv.url, acc, FIXTURE);
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await srv.stop();
    }
    const ch = chdbClient(chPath);
    try {
      const [events] = await chRows<{ n: number; visitors: number }>(ch, 'SELECT count() AS n, uniqExact(visitor_id) AS visitors FROM tern.events WHERE site_id = {s:String}', { s: siteId! });
      expect(events).toEqual({ n: FIXTURE.length, visitors: 5 });
      const [visits] = await chRows<{ n: number }>(ch, 'SELECT count() AS n FROM tern.visits WHERE site_id = {s:String}', { s: siteId! });
      expect(visits!.n).toBe(8);
      const [t] = await chRows<{ engine: string; partition_key: string; sorting_key: string }>(ch,
        "SELECT engine, partition_key, sorting_key FROM system.tables WHERE database = 'tern' AND name = 'events'");
      expect(t).toEqual({ engine: 'MergeTree', partition_key: 'toYYYYMM(ts)', sorting_key: 'site_id, ts' });
      const [first] = await chRows<{ ts: string; props: Record<string, string> }>(ch,
        "SELECT toString(ts) AS ts, props FROM tern.events WHERE event_name = 'Signup'");
      expect(first).toEqual({ ts: '2025-10-26 08:10:00.000000', props: { plan: 'pro' } });
    } finally {
      await ch.close();
    }
  }, 60_000);
});

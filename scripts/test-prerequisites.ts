// `npm test`'s pretest: makes sure what the tests need outside npm is on the machine, installing it with
// apt-get when running as root on Debian, otherwise stopping at once with one line saying what to install.
// Add a Debian prerequisite as one more entry of PREREQUISITES. chdb (an npm package) is installed into
// .cache/chdb by ensureChdb().
import { accessSync, constants, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { CHDB_VERSION } from '../src/storage/clickhouse/client.ts';

type Prerequisite = {
  /** What the tests need it for, as the one line names it. */
  what: string;
  /** Debian packages that provide it. */
  packages: string[];
  present: () => boolean;
  /** Tests that need it are skipped without it (one line each), so its absence does not stop the run. */
  optional?: boolean;
};

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where the browser tests find Chromium (test/tracker/browser.ts reads the same variable). */
const chromiumPath = () => process.env.TERN_CHROMIUM || '/usr/bin/chromium';

/** Any Debian PostgreSQL server (test/helpers/postgres.ts starts a private cluster with it; it reads the same variable). */
const postgresPresent = () => {
  const base = process.env.TERN_POSTGRESQL_DIR || '/usr/lib/postgresql';
  try {
    return readdirSync(base).some((v) => executable(`${base}/${v}/bin/postgres`));
  } catch {
    return false;
  }
};

/** Debian's nginx (test/helpers/nginx.ts starts one as the router in front of two nodes; it reads the same variable). */
const nginxPath = () => process.env.TERN_NGINX || '/usr/sbin/nginx';

const PREREQUISITES: Prerequisite[] = [
  { what: "Debian's chromium", packages: ['chromium'], present: () => executable(chromiumPath()) },
  { what: "Debian's postgresql (DATABASE_URL tests)", packages: ['postgresql'], present: postgresPresent, optional: true },
  { what: "Debian's nginx (several nodes behind a router)", packages: ['nginx'], present: () => executable(nginxPath()), optional: true },
];

const say = (line: string) => process.stderr.write(`tern: ${line}\n`);
const isRoot = () => process.getuid?.() === 0;

function aptInstall(packages: string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]) => spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  return run(['update', '-qq']) && run(['install', '-y', '-qq', ...packages]);
}

/**
 * chdb (ClickHouse's engine in process) for the ClickHouse tests: ~540 MB, so not a dependency; installed
 * into .cache/chdb on demand. When it cannot be, one line says so and those tests skip (nothing else needs it).
 */
function ensureChdb() {
  const dir = join(import.meta.dirname ?? '.', '..', '.cache', 'chdb');
  if (existsSync(join(dir, 'node_modules', 'chdb', 'package.json')) && existsSync(join(dir, 'node_modules', '@chdb'))) return;
  const command = `npm i --prefix .cache/chdb --no-save chdb@${CHDB_VERSION}`;
  say(`installing chdb for the ClickHouse tests (${command}, ~540 MB, once)`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['i', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `chdb@${CHDB_VERSION}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) say(`chdb could not be installed (\`${command}\` failed): the ClickHouse tests will skip`);
}
ensureChdb();

let missing = PREREQUISITES.filter((p) => !p.present());
// Without root an optional one is not installed: one line says what its tests will skip, and the run goes on.
if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
  for (const p of missing.filter((p) => p.optional)) say(`tests that need ${p.what} will be skipped: run \`apt-get install -y ${p.packages.join(' ')}\` as root`);
  missing = missing.filter((p) => !p.optional);
}
if (missing.length) {
  const packages = missing.flatMap((p) => p.packages);
  const command = `apt-get install -y ${packages.join(' ')}`;
  const names = missing.map((p) => p.what).join(' and ');
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) {
    say(`tests need ${names}: run \`${command}\` as root`);
    process.exit(1);
  }
  say(`installing ${names} for the tests (${command})`);
  const installed = aptInstall(packages);
  let still = missing.filter((p) => !p.present());
  for (const p of still.filter((p) => p.optional)) say(`tests that need ${p.what} will be skipped: \`apt-get install -y ${p.packages.join(' ')}\` did not provide it`);
  still = still.filter((p) => !p.optional);
  if (still.length || (!installed && missing.some((p) => !p.optional))) {
    say(`tests need ${still.map((p) => p.what).join(' and ') || names}: \`${command}\` did not provide it${process.env.TERN_CHROMIUM ? ` (TERN_CHROMIUM=${process.env.TERN_CHROMIUM})` : ''}`);
    process.exit(1);
  }
}

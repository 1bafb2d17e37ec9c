// npm test's pretest (scripts/test-prerequisites.ts): silent when Chromium is there; without it and without
// root, one line naming the Debian package and exit 1, never a stack trace.
import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..', '..');
const script = join(root, 'scripts', 'test-prerequisites.ts');

function run(env: Record<string, string>, asNobody = false) {
  // As root the script would install the package; the non-root path is taken as the nobody user.
  const cmd = asNobody && process.getuid?.() === 0
    ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script]
    : [process.execPath, script];
  const p = Bun.spawnSync(cmd, { cwd: root, env: { ...process.env, ...env } });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

test('with Chromium where the tests look for it: exit 0, nothing printed', () => {
  expect(existsSync(process.env.TERN_CHROMIUM || '/usr/bin/chromium')).toBe(true);
  expect(run({})).toEqual({ code: 0, stdout: '', stderr: '' });
});

test.skipIf(process.getuid?.() === 0 && !existsSync('/usr/bin/setpriv'))('without it, not root: one line saying what to install, exit 1', () => {
  const r = run({ TERN_CHROMIUM: '/nonexistent/chromium' }, true);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe("tern: tests need Debian's chromium: run `apt-get install -y chromium` as root\n");
});

test.skipIf(process.getuid?.() === 0 && !existsSync('/usr/bin/setpriv'))('without PostgreSQL, not root: one line saying which tests skip, and the run goes on (exit 0)', () => {
  const r = run({ TERN_POSTGRESQL_DIR: '/nonexistent/postgresql' }, true);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe("tern: tests that need Debian's postgresql (DATABASE_URL tests) will be skipped: run `apt-get install -y postgresql` as root\n");
});

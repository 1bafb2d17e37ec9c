// Start-up after main.ts: config → storage → server → signals. SIGTERM/SIGINT drain and exit 0.
import process from 'node:process';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './storage/database.ts';
import { startServer, type Tern } from './server.ts';
import { ListenError } from './runtime/index.ts';
import { log } from './log.ts';

let tern: Tern | undefined;
let stopRequested: string | undefined;

async function shutdown(signal: string) {
  stopRequested = signal;
  // A signal during start-up is honoured once the server is up, so nothing half-open is left behind.
  if (!tern) return;
  log.info('shutting down', { signal });
  const running = tern;
  tern = undefined;
  await running.stop();
  process.exit(0);
}

// Installed before start-up: without a handler the default action would kill the process undrained.
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  tern = await startServer(loadConfig(process.env));
  if (stopRequested) await shutdown(stopRequested);
} catch (e) {
  if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof ListenError) {
    console.error(`tern: ${e.message}`);
    process.exit(1);
  }
  throw e;
}

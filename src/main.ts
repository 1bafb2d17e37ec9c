// Entry point: config → storage → server → signals. SIGTERM/SIGINT drain and exit 0.
import process from 'node:process';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './storage/database.ts';
import { startServer } from './server.ts';
import { ListenError } from './runtime/index.ts';
import { log } from './log.ts';

try {
  const tern = await startServer(loadConfig(process.env));
  let exiting = false;
  const shutdown = async (signal: string) => {
    if (exiting) return;
    exiting = true;
    log.info('shutting down', { signal });
    await tern.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
} catch (e) {
  if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof ListenError) {
    console.error(`tern: ${e.message}`);
    process.exit(1);
  }
  throw e;
}

// Structured one-line JSON logs to stderr. Never pass secrets (keys, tokens, passwords) here.
type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
let threshold = order.info;

export function setLogLevel(level: Level) { threshold = order[level]; }

function write(level: Exclude<Level, 'silent'>, msg: string, fields?: Record<string, unknown>) {
  if (order[level] < threshold) return;
  console.error(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }));
}

export const log = {
  debug: (m: string, f?: Record<string, unknown>) => write('debug', m, f),
  info: (m: string, f?: Record<string, unknown>) => write('info', m, f),
  warn: (m: string, f?: Record<string, unknown>) => write('warn', m, f),
  error: (m: string, f?: Record<string, unknown>) => write('error', m, f),
};

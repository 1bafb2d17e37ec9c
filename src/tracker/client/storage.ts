// Visitor UID and the 30-minute session ID in localStorage (shared by every tab of the site), with an in-memory
// fallback for browsers that block storage, so the tracker keeps working (as a one-page visitor) instead of throwing.
const SESSION_MS = 30 * 60 * 1000;
const memory: Record<string, string> = {};

type Kind = 'localStorage' | 'sessionStorage';

export function read(key: string, kind: Kind = 'localStorage'): string | null {
  try {
    return window[kind].getItem(key);
  } catch {
    return memory[key] ?? null;
  }
}

export function write(key: string, value: string | null, kind: Kind = 'localStorage') {
  try {
    value == null ? window[kind].removeItem(key) : window[kind].setItem(key, value);
  } catch {
    value == null ? delete memory[key] : (memory[key] = value);
  }
}

/** 128 random bits as hex; getRandomValues works outside secure contexts, unlike randomUUID. */
function randomId(): string {
  const words = crypto.getRandomValues(new Uint32Array(4));
  return Array.from(words, (w) => w.toString(16).padStart(8, '0')).join('');
}

export function visitorUid(): string {
  let uid = read('tern_uid');
  if (!uid) write('tern_uid', (uid = randomId()));
  return uid;
}

/** The current session ID; a new one after 30 minutes without any event from any tab. Touches the session. */
export function sessionId(now = Date.now()): string {
  let [id, last] = (read('tern_session') || '').split('.');
  // `!(x < y)` so that a missing or corrupt timestamp (NaN) also starts a new session.
  if (!id || !(now - Number(last) < SESSION_MS)) id = randomId();
  write('tern_session', id + '.' + now);
  return id;
}

export function isSessionFresh(at: number, now = Date.now()): boolean {
  return now - at < SESSION_MS;
}

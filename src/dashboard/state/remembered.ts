// Last-known answers kept in localStorage (who is signed in, the organization's sites), shown at once on the next
// visit while the fresh answer loads: the dashboard's data requests then start at boot instead of after two round trips.
export function remembered<T>(key: string): T | undefined {
  try {
    const v = localStorage.getItem(`tern-cache-${key}`);
    return v ? (JSON.parse(v) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function remember(key: string, value: unknown): void {
  try {
    if (value === undefined) localStorage.removeItem(`tern-cache-${key}`);
    else localStorage.setItem(`tern-cache-${key}`, JSON.stringify(value));
  } catch {
    // No storage: every visit waits for the answers.
  }
}

export function forgetAll(): void {
  try {
    for (const k of Object.keys(localStorage)) if (k.startsWith('tern-cache-')) localStorage.removeItem(k);
  } catch {
    // Nothing stored.
  }
}

/**
 * Waits before revalidating a remembered answer: a browser runs only 6 requests per host at once, and the
 * dashboard's data requests should get those slots first (a dead session still shows at once: they answer 401).
 */
export const revalidateDelay = (ms = 1500) => new Promise<void>((r) => setTimeout(r, ms));

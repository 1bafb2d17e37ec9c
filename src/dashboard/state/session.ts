// Who is signed in: the /auth/me answer as a signal (undefined while loading, null when signed out), and the API
// client of the signed-in app, which sends people to /login (and back afterwards) when their session ends.
import { computed, signal } from '@preact/signals';
import { createClient } from '../api/client.ts';
import type { Me } from '../api/types.ts';
import { loc, navigate } from '../router.ts';
import { markSignedIn, maybeSignedIn } from './signed-in.ts';
import { forgetAll, remember, remembered, revalidateDelay } from './remembered.ts';

export const me = signal<Me | null | undefined>(undefined);

/** The organization the app works in: the first one the user belongs to. */
export const org = computed(() => me.value?.organizations[0]);

export function loginUrl(): string {
  const here = loc.value.path + loc.value.search;
  return here === '/' ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

export const api = createClient({
  onUnauthorized: () => {
    markSignedIn(false);
    forgetAll();
    if (me.value === null) return;
    me.value = null;
    if (!['/login', '/register'].includes(loc.value.path)) navigate(loginUrl(), { replace: true });
  },
});

export async function refreshMe(): Promise<void> {
  if (!maybeSignedIn()) {
    me.value = null;
    return;
  }
  // Shown at once; the fresh answer replaces it (or a 401 sends the visitor to /login).
  const cached = me.value === undefined ? remembered<Me>('me') : undefined;
  if (cached) {
    me.value = cached;
    await revalidateDelay();
  }
  try {
    me.value = await api.auth.me();
    remember('me', me.value);
    markSignedIn(true);
  } catch {
    me.value = null;
    forgetAll();
  }
}

/** After login or registration, which set the session cookie. */
export async function signedIn(): Promise<void> {
  markSignedIn(true);
  await refreshMe();
}

export async function logout(): Promise<void> {
  try {
    await api.auth.logout();
  } finally {
    markSignedIn(false);
    forgetAll();
    me.value = null;
    navigate('/login', { replace: true });
  }
}

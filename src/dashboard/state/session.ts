// Who is signed in: the /auth/me answer as a signal (undefined while loading, null when signed out), and the API
// client of the signed-in app, which sends people to /login (and back afterwards) when their session ends.
import { computed, signal } from '@preact/signals';
import { createClient } from '../api/client.ts';
import type { Me } from '../api/types.ts';
import { loc, navigate } from '../router.ts';
import { rememberToken, storedToken } from './token.ts';

export const me = signal<Me | null | undefined>(undefined);

/** The organization the app works in: the first one the user belongs to. */
export const org = computed(() => me.value?.organizations[0]);

export function loginUrl(): string {
  const here = loc.value.path + loc.value.search;
  return here === '/' ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

export const api = createClient({
  bearer: storedToken,
  onUnauthorized: () => {
    if (me.value === null) return;
    me.value = null;
    if (!['/login', '/register'].includes(loc.value.path)) navigate(loginUrl(), { replace: true });
  },
});

export async function refreshMe(): Promise<void> {
  try {
    me.value = await api.auth.me();
  } catch {
    me.value = null;
  }
}

export async function logout(): Promise<void> {
  try {
    await api.auth.logout();
  } finally {
    rememberToken(undefined);
    me.value = null;
    navigate('/login', { replace: true });
  }
}

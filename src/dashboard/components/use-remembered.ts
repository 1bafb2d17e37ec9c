// useData for small lists that rarely change (sites, goals, funnels): the remembered copy shows at once and the
// fresh one loads a little later, after the panels' requests took the browser's connection slots.
import { remember, remembered, revalidateDelay } from '../state/remembered.ts';
import { useData, type Loaded } from './use-data.ts';

/** `key` undefined: nothing is remembered (shared views, whose viewers may be on a public computer). */
export function useRemembered<T>(key: string | undefined, load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const cached = key ? remembered<T>(key) : undefined;
  return useData(async () => {
    if (cached !== undefined) await revalidateDelay();
    const fresh = await load();
    if (key) remember(key, fresh);
    return fresh;
  }, deps, cached);
}

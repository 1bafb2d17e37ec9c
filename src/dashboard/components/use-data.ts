// Loads data for a component whenever its key changes: aborts the stale request, keeps the last data while
// reloading, and turns failures into a readable message (components/explain) instead of a blank panel.
import { useLayoutEffect, useState } from 'preact/hooks';
import { explain } from '../api/client.ts';

export type Loaded<T> = { data?: T; error?: string; loading: boolean; reload: () => void };

const same = (a: unknown[], b: unknown[] | undefined) => !!b && a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/** `initial`: data to show until the first load answers (a remembered copy). */
export function useData<T>(load: (signal: AbortSignal) => Promise<T>, key: unknown[], initial?: T): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean; of?: unknown[] }>({ loading: true, data: initial });
  const [n, setN] = useState(0);
  const deps = [...key, n];
  // Started as the render is committed, not after the next paint (useEffect waits for an animation frame): a
  // dashboard's requests leave a frame or more sooner, while the browser's main thread is busiest.
  useLayoutEffect(() => {
    const ac = new AbortController();
    setState((s) => ({ data: s.data, loading: true, of: deps }));
    load(ac.signal).then(
      (data) => { if (!ac.signal.aborted) setState({ data, loading: false, of: deps }); },
      (e) => { if (!ac.signal.aborted) setState({ error: explain(e) || 'Failed to load', loading: false, of: deps }); },
    );
    return () => ac.abort();
  }, deps);
  // The render in which the key changed comes before the effect that starts the load: it is loading already, so
  // a panel never shows "no data" for a frame between one answer and the request it leads to.
  return { data: state.data, error: state.error, loading: state.loading || !same(deps, state.of), reload: () => setN((x) => x + 1) };
}

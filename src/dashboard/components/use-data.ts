// Loads data for a component whenever its key changes: aborts the stale request, keeps the last data while
// reloading, and turns failures into a readable message (components/explain) instead of a blank panel.
import { useEffect, useState } from 'preact/hooks';
import { explain } from '../api/client.ts';

export type Loaded<T> = { data?: T; error?: string; loading: boolean; reload: () => void };

/** `initial`: data to show until the first load answers (a remembered copy). */
export function useData<T>(load: (signal: AbortSignal) => Promise<T>, key: unknown[], initial?: T): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true, data: initial });
  const [n, setN] = useState(0);
  useEffect(() => {
    const ac = new AbortController();
    setState((s) => ({ data: s.data, loading: true }));
    load(ac.signal).then(
      (data) => { if (!ac.signal.aborted) setState({ data, loading: false }); },
      (e) => { if (!ac.signal.aborted) setState({ error: explain(e) || 'Failed to load', loading: false }); },
    );
    return () => ac.abort();
  }, [...key, n]);
  return { ...state, reload: () => setN((x) => x + 1) };
}

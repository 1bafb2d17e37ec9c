// The dashboard's top bar: site switcher, current visitors (refreshed every 30 s), period picker, comparison.
import { useEffect, useState } from 'preact/hooks';
import type { Site } from '../../api/types.ts';
import { navigate } from '../../router.ts';
import { PeriodPicker } from './period-picker.tsx';
import { setParams, type ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

function CurrentVisitors({ scope }: { scope: Scope }) {
  const [n, setN] = useState<number | undefined>();
  useEffect(() => {
    let timer: ReturnType<typeof setInterval>;
    const ac = new AbortController();
    const load = () => scope.api.analytics.realtime(scope.orgId, scope.site.id, ac.signal).then((r) => setN(r.visitors), () => {});
    // The first count waits for the panels' requests to take the browser's connection slots.
    const first = setTimeout(load, 1200);
    timer = setInterval(load, 30_000);
    return () => { clearTimeout(first); clearInterval(timer); ac.abort(); };
  }, [scope.site.id]);
  if (n === undefined) return null;
  return <span class="current-visitors" title="Visitors in the last 30 minutes"><span class="dot" aria-hidden="true" />{n} current visitor{n === 1 ? '' : 's'}</span>;
}

export function TopBar({ scope, view, today, sites }: { scope: Scope; view: ViewState; today: string; sites?: Site[] }) {
  return (
    <div class="topbar">
      <div class="topbar-site">
        {sites && sites.length > 1 ? (
          <>
            <label for="site-switch" class="sr-only">Site</label>
            <select id="site-switch" class="site-switch" value={scope.site.id} onChange={(e) => navigate(`/sites/${e.currentTarget.value}${location.search}`)}>
              {sites.map((s) => <option value={s.id}>{s.name || s.domain}</option>)}
            </select>
          </>
        ) : <h1 class="site-title">{scope.site.name || scope.site.domain}</h1>}
        <CurrentVisitors scope={scope} />
      </div>
      <div class="topbar-controls">
        <PeriodPicker period={view.period} today={today} />
        <label for="compare" class="sr-only">Comparison</label>
        <select id="compare" class="compare" value={view.compare} disabled={view.period.period === 'all'}
          onChange={(e) => setParams({ compare: e.currentTarget.value === 'previous' ? null : e.currentTarget.value })}>
          <option value="off">No comparison</option>
          <option value="previous">vs previous period</option>
          <option value="year">vs year before</option>
        </select>
      </div>
    </div>
  );
}

// The Goals panel: each goal's converting visitors, conversions, conversion rate and revenue; a click filters by it.
import type { Goal, GoalStats } from '../../api/types.ts';
import type { Loaded } from '../../components/use-data.ts';
import { Bars, PanelFrame, PanelState } from './panel.tsx';
import { addFilter, type ViewState } from './query-state.ts';
import type { Scope } from './scope.ts';

export function GoalsPanel({ scope, view, stats, goals }: { scope: Scope; view: ViewState; stats: Loaded<GoalStats>; goals?: Goal[] }) {
  const rows = (stats.data?.goals ?? []).map((g) => ({ ...g, name: g.name, label: g.name }))
    .sort((a, b) => b.visitors - a.visitors);
  const noGoals = goals !== undefined && goals.length === 0 && !rows.length && !stats.loading;
  return (
    <PanelFrame title="Goals" busy={stats.loading} wide>
      {noGoals ? (
        <div class="panel-msg muted"><p>No goals yet.{!scope.shared && <> <a href={`${scope.base}/settings#goals`}>Set one up</a> to count conversions.</>}</p></div>
      ) : (
        <>
          <PanelState loading={stats.loading} error={stats.error} empty={!rows.length} />
          {!!rows.length && !stats.error && (
            <Bars rows={rows as any} title="Goal" onPick={(r) => addFilter(view, { dimension: 'goal', operator: 'is', value: (r as any).id })}
              columns={[{ key: 'visitors', label: 'Uniques', kind: 'number' }, { key: 'completions', label: 'Total', kind: 'number' },
                { key: 'conversion_rate', label: 'CR', kind: 'percent' }, ...(rows.some((r) => r.revenue) ? [{ key: 'revenue', label: 'Revenue', kind: 'money', currency: scope.site.currency } as const] : [])]} />
          )}
        </>
      )}
    </PanelFrame>
  );
}

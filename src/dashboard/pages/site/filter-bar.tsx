// Active filters as chips: click to edit (operator and value), × to remove, Esc anywhere clears them all.
import { useEffect, useState } from 'preact/hooks';
import type { Filter, Goal } from '../../api/types.ts';
import { Modal } from '../../components/modal.tsx';
import { dimensionLabel } from './panel-defs.ts';
import { setFilters, type ViewState } from './query-state.ts';

const OPS: [Filter['operator'], string][] = [['is', 'is'], ['is_not', 'is not'], ['contains', 'contains'], ['not_contains', 'does not contain'], ['matches', 'matches'], ['not_matches', 'does not match']];
const opLabel = (o: string) => OPS.find((x) => x[0] === o)?.[1] ?? o;

function EditFilter({ filter, onSave, onClose }: { filter: Filter; onSave: (f: Filter) => void; onClose: () => void }) {
  const submit = (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const value = String(f.get('value')).trim();
    if (value) onSave({ ...filter, operator: f.get('operator') as Filter['operator'], value });
  };
  return (
    <Modal title={`Filter by ${dimensionLabel(filter.dimension)}`} onClose={onClose}>
      <form onSubmit={submit}>
        <div class="field"><label for="filter-op">Operator</label>
          <select id="filter-op" name="operator" defaultValue={filter.operator}>{OPS.map(([v, l]) => <option value={v} selected={v === filter.operator}>{l}</option>)}</select></div>
        <div class="field"><label for="filter-value">Value</label><input id="filter-value" name="value" type="text" defaultValue={filter.value} required /></div>
        <div class="row-actions"><button type="submit" class="btn btn-primary">Apply filter</button><button type="button" class="btn" onClick={onClose}>Cancel</button></div>
      </form>
    </Modal>
  );
}

export function FilterBar({ view, goals }: { view: ViewState; goals?: Goal[] }) {
  const [editing, setEditing] = useState<number | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && view.filters.length && !document.querySelector('[aria-modal]') && !(e.target as HTMLElement).closest('.menu, .period')) setFilters([]);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [view.filters.length]);
  if (!view.filters.length) return null;
  const valueText = (f: Filter) => (f.dimension === 'goal' ? goals?.find((g) => g.id === f.value)?.name ?? f.value : f.value);
  return (
    <div class="filters" role="group" aria-label="Filters">
      {view.filters.map((f, i) => (
        <span class="chip">
          <button type="button" class="chip-edit" onClick={() => setEditing(i)} aria-label={`Edit filter ${dimensionLabel(f.dimension)} ${opLabel(f.operator)} ${valueText(f)}`}>
            <span class="muted">{dimensionLabel(f.dimension)}</span> {opLabel(f.operator)} <strong>{valueText(f)}</strong>
          </button>
          <button type="button" class="chip-remove" aria-label={`Remove filter ${dimensionLabel(f.dimension)}`} onClick={() => setFilters(view.filters.filter((_, j) => j !== i))}>×</button>
        </span>
      ))}
      {view.filters.length > 1 && <button type="button" class="btn btn-sm btn-ghost" onClick={() => setFilters([])}>Clear all</button>}
      {editing !== null && view.filters[editing] && (
        <EditFilter filter={view.filters[editing]!} onClose={() => setEditing(null)}
          onSave={(nf) => { setEditing(null); setFilters(view.filters.map((f, j) => (j === editing ? nf : f))); }} />
      )}
    </div>
  );
}

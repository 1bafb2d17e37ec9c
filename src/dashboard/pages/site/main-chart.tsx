// The main time-series chart (uPlot, loaded lazily): the charted metric, the comparison as a second line, the
// running bucket dashed, annotation markers with their text on hover/focus, drag-to-zoom into a custom range,
// and a data table as its text equivalent.
import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlotType from 'uplot';
import type { Annotation, Interval } from '../../api/types.ts';
import { systemTheme, theme } from '../../state/theme.ts';
import { formatMetric, METRIC_LABELS, type Series } from './chart-series.ts';
import type { ChartMetric } from './query-state.ts';

/** Starts loading uPlot at once (called when the dashboard mounts, in parallel with its data requests). */
export const loadUPlot = () => import('uplot').then((m) => m.default);

/** A colour token as the canvas needs it: tokens are light-dark() pairs, which only a property using them resolves. */
function color(name: string, probe: HTMLElement): string {
  probe.style.color = `var(${name})`;
  return getComputedStyle(probe).color;
}

type Tip = { left: number; top: number; label: string; value: string; prev?: string };

export function MainChart({ series, metric, interval, annotations, currency, onZoom, comparing }: {
  series: Series; metric: ChartMetric; interval: Interval; annotations: Annotation[]; currency: string; comparing: boolean;
  onZoom?: (i: number, j: number) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlotType | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [marks, setMarks] = useState<{ left: number; a: Annotation }[]>([]);
  const [table, setTable] = useState(false);
  const themeNow = `${theme.value}${systemTheme.value}`;

  useEffect(() => {
    let dead = false;
    let ro: ResizeObserver | undefined;
    void loadUPlot().then((uPlot) => {
      if (dead || !box.current) return;
      const el = box.current;
      const accent = color('--accent', el), grid = color('--border', el), muted = color('--muted', el), compare = color('--compare', el);
      el.style.color = '';
      const n = series.labels.length;
      const xs = series.labels.map((_, i) => i);
      const fmt = (v: number | null) => formatMetric(metric, v, currency);
      const annIndex = (a: Annotation) => { let k = -1; series.dates.forEach((d, i) => { if (d.slice(0, 10) <= a.date) k = i; }); return k; };
      const opts: uPlotType.Options = {
        width: el.clientWidth, height: 260,
        padding: [12, 8, 0, 0],
        legend: { show: false },
        cursor: { drag: { x: !!onZoom && interval !== 'hour', y: false, setScale: false }, points: { size: 8 } },
        select: { show: true, left: 0, top: 0, width: 0, height: 0 },
        scales: { x: { time: false, range: [0, Math.max(1, n - 1)] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: muted, grid: { show: false }, ticks: { show: false }, font: '12px system-ui', size: 30,
            splits: () => { const step = Math.max(1, Math.ceil(n / Math.max(2, Math.floor(el.clientWidth / 90)))); return xs.filter((i) => i % step === 0); },
            values: (_u, splits) => splits.map((i) => series.labels[i] ?? '') },
          { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { show: false }, font: '12px system-ui', size: 56,
            values: (_u, splits) => splits.map((v) => fmt(v)) },
        ],
        series: [
          {},
          { label: METRIC_LABELS[metric], stroke: accent, width: 2.5, fill: `${accent}1f`, points: { show: el.clientWidth / Math.max(1, n) > 24 } },
          { label: `${METRIC_LABELS[metric]} (running)`, stroke: accent, width: 2.5, dash: [6, 5], points: { show: true } },
          ...(comparing && series.compare ? [{ label: 'Comparison', stroke: compare, width: 1.5, dash: [2, 3], points: { show: false } }] : []),
        ],
        hooks: {
          setCursor: [(u) => {
            const i = u.cursor.idx;
            if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) { setTip(null); return; }
            const v = series.solid[i] ?? series.dashed[i] ?? null;
            setTip({ left: u.cursor.left!, top: u.cursor.top!, label: series.labels[i]! + (interval === 'hour' ? '' : ''),
              value: fmt(v), prev: comparing && series.compare ? fmt(series.compare[i] ?? null) : undefined });
          }],
          setSelect: [(u) => {
            if (!onZoom || u.select.width < 4) return;
            const i = Math.max(0, Math.round(u.posToVal(u.select.left, 'x')));
            const j = Math.min(n - 1, Math.round(u.posToVal(u.select.left + u.select.width, 'x')));
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
            if (j > i) onZoom(i, j);
          }],
          draw: [(u) => setMarks(annotations.map((a) => ({ a, i: annIndex(a) })).filter((m) => m.i >= 0)
            .map(({ a, i }) => ({ a, left: u.valToPos(i, 'x') + u.bbox.left / devicePixelRatio }))) ],
        },
      };
      const data: uPlotType.AlignedData = [xs, series.solid, series.dashed, ...(comparing && series.compare ? [series.compare] : [])];
      plot.current?.destroy();
      plot.current = new uPlot(opts, data, el);
      ro = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: 260 }));
      ro.observe(el);
    });
    return () => { dead = true; ro?.disconnect(); plot.current?.destroy(); plot.current = null; };
  }, [series, metric, comparing, annotations, themeNow]);

  return (
    <div class="chart-wrap">
      <div class="chart" onMouseLeave={() => setTip(null)}>
        <div ref={box} role="img" aria-label={`${METRIC_LABELS[metric]} chart; the data table below has its values`} />
        {tip && (
          <div class="chart-tip" style={{ left: `${tip.left + 60}px`, top: `${Math.max(0, tip.top - 10)}px` }}>
            <strong>{tip.label}</strong>
            <span>{METRIC_LABELS[metric]}: {tip.value}</span>
            {tip.prev !== undefined && <span class="muted">Previous: {tip.prev}</span>}
          </div>
        )}
        {marks.map((m) => (
          <button type="button" class="annotation" style={{ left: `${m.left}px` }} aria-label={`Annotation ${m.a.date}: ${m.a.text}`} title={`${m.a.date}: ${m.a.text}`}>
            <span class="annotation-text" role="tooltip">{m.a.date}: {m.a.text}</span>
          </button>
        ))}
      </div>
      <div class="chart-foot">
        <button type="button" class="btn btn-sm btn-ghost" aria-expanded={table} onClick={() => setTable(!table)}>{table ? 'Hide data table' : 'Show data table'}</button>
        {onZoom && interval !== 'hour' && <span class="muted hint-zoom">Drag across the chart to zoom in</span>}
      </div>
      {table && (
        <div class="table-scroll chart-table">
          <table class="data">
            <caption class="sr-only">{METRIC_LABELS[metric]} per {interval}</caption>
            <thead><tr><th>{interval === 'hour' ? 'Hour' : 'Date'}</th><th class="num">{METRIC_LABELS[metric]}</th>{comparing && series.compare && <th class="num">Comparison</th>}</tr></thead>
            <tbody>
              {series.labels.map((l, i) => (
                <tr><td>{series.dates[i]}{i === series.current ? ' (so far)' : ''}</td><td class="num">{formatMetric(metric, series.solid[i] ?? series.dashed[i] ?? null, currency)}</td>
                  {comparing && series.compare && <td class="num">{formatMetric(metric, series.compare[i] ?? null, currency)}</td>}</tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

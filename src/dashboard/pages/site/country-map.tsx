// The Locations panel's map (its own lazy chunk: world-atlas + topojson-client + d3-geo load only when opened):
// countries shaded by visitors, name and count on hover, a click filters by the country.
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import world from 'world-atlas/countries-110m.json';
import type { Row } from '../../api/types.ts';
import { fmtNumber } from '../../components/format.ts';

/** world-atlas names that differ from the browser's English region names (matched to ISO 3166-1 alpha-2 below). */
const ALIASES: Record<string, string> = {
  'W. Sahara': 'EH', 'United States of America': 'US', 'Dem. Rep. Congo': 'CD', 'Dominican Rep.': 'DO', 'Falkland Is.': 'FK',
  'Fr. S. Antarctic Lands': 'TF', "Côte d'Ivoire": 'CI', 'Central African Rep.': 'CF', Congo: 'CG', 'Eq. Guinea': 'GQ', eSwatini: 'SZ',
  Palestine: 'PS', Myanmar: 'MM', Turkey: 'TR', 'Solomon Is.': 'SB', 'N. Cyprus': 'CY', Somaliland: 'SO', 'Bosnia and Herz.': 'BA',
  Macedonia: 'MK', 'Trinidad and Tobago': 'TT', 'S. Sudan': 'SS',
};

const W = 800, H = 400;

function codeByName(): Map<string, string> {
  const dn = new Intl.DisplayNames(['en'], { type: 'region' });
  const m = new Map<string, string>(Object.entries(ALIASES));
  for (let a = 65; a < 91; a++) for (let b = 65; b < 91; b++) {
    const c = String.fromCharCode(a, b);
    try { const n = dn.of(c); if (n && n !== c && !m.has(n)) m.set(n, c); } catch { /* not a region code */ }
  }
  return m;
}

const shapes = (() => {
  const codes = codeByName();
  const fc = feature(world as any, (world as any).objects.countries) as any;
  const path = geoPath(geoNaturalEarth1().fitSize([W, H], fc));
  return (fc.features as any[]).filter((f) => f.properties.name !== 'Antarctica')
    .map((f) => ({ name: f.properties.name as string, code: codes.get(f.properties.name) ?? '', d: path(f) ?? '' }));
})();

export function CountryMap({ rows, onPick }: { rows: Row[]; onPick: (r: Row) => void }) {
  const by = new Map(rows.map((r) => [r.name, r]));
  const max = Math.max(1, ...rows.map((r) => r.visitors));
  return (
    <svg class="map" viewBox={`0 0 ${W} ${H}`} role="img" aria-label="World map of visitors by country; the Countries tab lists the same numbers">
      {shapes.map((s) => {
        const r = by.get(s.code);
        const level = r ? 0.2 + 0.8 * Math.sqrt(r.visitors / max) : 0;
        return (
          <path d={s.d} class={r ? 'country has-data' : 'country'} style={r ? { fillOpacity: String(level) } : undefined}
            onClick={r ? () => onPick(r) : undefined}>
            <title>{`${r?.label ?? s.name}: ${fmtNumber(r?.visitors ?? 0)} visitors`}</title>
          </path>
        );
      })}
    </svg>
  );
}

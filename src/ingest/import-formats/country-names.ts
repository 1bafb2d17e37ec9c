// English country names (as GA4 exports geo.country) → ISO 3166-1 alpha-2 codes, as Tern stores countries.
// Built from the runtime's own region names (Intl.DisplayNames), plus the spellings Google uses where they differ.

const ALIASES: Record<string, string> = {
  'hong kong': 'HK', 'macao': 'MO', 'macau': 'MO', 'turkey': 'TR', 'türkiye': 'TR', 'czech republic': 'CZ', 'czechia': 'CZ',
  'south korea': 'KR', 'north korea': 'KP', 'russia': 'RU', 'vietnam': 'VN', 'myanmar (burma)': 'MM', 'myanmar': 'MM',
  'palestine': 'PS', 'côte d’ivoire': 'CI', "cote d'ivoire": 'CI', 'congo - kinshasa': 'CD', 'congo - brazzaville': 'CG',
  'bosnia & herzegovina': 'BA', 'trinidad & tobago': 'TT', 'st. lucia': 'LC', 'united states of america': 'US',
  'eswatini': 'SZ', 'north macedonia': 'MK', 'cape verde': 'CV', 'taiwan': 'TW',
};

/** Codes that are not countries today (withdrawn, reserved, groupings) yet have names: DD would claim "Germany". */
const NOT_COUNTRIES = new Set(['DD', 'FX', 'UK', 'SU', 'YU', 'ZR', 'TP', 'BU', 'CS', 'NT', 'QO', 'QU', 'ZZ', 'EU', 'EZ', 'UN', 'XA', 'XB', 'AN']);

let byName: Map<string, string> | undefined;

function build(): Map<string, string> {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const m = new Map<string, string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      let name: string | undefined;
      try { name = names.of(code); } catch { continue; }
      if (name && name !== code && !m.has(name.toLowerCase()) /* the first code of a name wins */) m.set(name.toLowerCase(), code);
    }
  }
  for (const [k, v] of Object.entries(ALIASES)) m.set(k, v);
  return m;
}

/** The code of an English country name (case-insensitive); null for "(not set)" or an unknown name. */
export function countryCode(name: string | null | undefined): string | null {
  if (!name) return null;
  if (/^[A-Z]{2}$/.test(name)) return name;
  return (byName ??= build()).get(name.trim().toLowerCase()) ?? null;
}

// Human labels for breakdown values: English country names for ISO 3166-1 alpha-2 codes.
const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

export function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return regions.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Which dimensions carry a `label` beside `name`. */
export const LABELLERS: Record<string, (name: string) => string> = { country: countryName };

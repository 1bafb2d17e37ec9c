// Light/dark theme: follows prefers-color-scheme unless the toggle (kept in localStorage) or ?theme= says otherwise.
import { signal } from '@preact/signals';

export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'tern-theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

export const theme = signal<ThemeChoice>(stored());

const dark = matchMedia('(prefers-color-scheme: dark)');

/** Bumped when the OS theme changes, so canvas charts (which read colours once) redraw. */
export const systemTheme = signal(dark.matches);
dark.addEventListener('change', () => (systemTheme.value = dark.matches));

/** The theme actually shown. */
export const effectiveTheme = (): 'light' | 'dark' => (theme.value === 'system' ? (dark.matches ? 'dark' : 'light') : theme.value);

export function applyTheme(forced?: 'light' | 'dark'): void {
  const t = forced ?? theme.value;
  if (t === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', t);
}

export function toggleTheme(): void {
  theme.value = effectiveTheme() === 'dark' ? 'light' : 'dark';
  try {
    localStorage.setItem(KEY, theme.value);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  applyTheme();
}

// The app's URLs: each pattern, the page it shows (lazy pages load their chunk on first visit), and whether it needs a session.
import type { ComponentType } from 'preact';
import { LoginPage } from './pages/login/login-page.tsx';
import { RegisterPage } from './pages/register/register-page.tsx';
import { SitesPage } from './pages/sites/sites-page.tsx';
import { NewSitePage } from './pages/sites/new-site-page.tsx';
import { SitePage } from './pages/site/site-page.tsx';

export type Route = { pattern: RegExp; page: ComponentType<{ params: string[] }>; auth: boolean; chrome?: boolean };

export const ROUTES: Route[] = [
  { pattern: /^\/login$/, page: LoginPage, auth: false, chrome: false },
  { pattern: /^\/register$/, page: RegisterPage, auth: false, chrome: false },
  { pattern: /^\/(?:sites\/?)?$/, page: SitesPage, auth: true },
  { pattern: /^\/sites\/new$/, page: NewSitePage, auth: true },
  { pattern: /^\/sites\/([^/]+)$/, page: SitePage, auth: true },
];

export function match(path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    const m = path.match(route.pattern);
    if (m) return { route, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

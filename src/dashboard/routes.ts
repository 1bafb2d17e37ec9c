// The app's URLs: each pattern, the page it shows (lazy pages load their chunk on first visit), and whether it needs a session.
import type { ComponentType } from 'preact';
import { LoginPage } from './pages/login/login-page.tsx';
import { RegisterPage } from './pages/register/register-page.tsx';
import { SitesPage } from './pages/sites/sites-page.tsx';
import { NewSitePage } from './pages/sites/new-site-page.tsx';
import { SitePage } from './pages/site/site-page.tsx';
import { VisitorsPage } from './pages/visitors/visitors-page.tsx';
import { VisitorPage } from './pages/visitors/visitor-page.tsx';
import { FunnelPage } from './pages/funnel/funnel-page.tsx';
import { SiteSettingsPage } from './pages/site-settings/site-settings-page.tsx';
import { ApiKeysPage } from './pages/settings/api-keys-page.tsx';
import { OrganizationPage } from './pages/settings/organization-page.tsx';
import { SharePage } from './pages/share/share-page.tsx';

/** `guest`: only for the signed out (a session goes to /); `chrome: false`: the page draws its own frame. */
export type Route = { pattern: RegExp; page: ComponentType<{ params: string[] }>; auth: boolean; chrome?: boolean; guest?: boolean };

export const ROUTES: Route[] = [
  { pattern: /^\/login$/, page: LoginPage, auth: false, chrome: false, guest: true },
  { pattern: /^\/register$/, page: RegisterPage, auth: false, chrome: false, guest: true },
  { pattern: /^\/(?:sites\/?)?$/, page: SitesPage, auth: true },
  { pattern: /^\/sites\/new$/, page: NewSitePage, auth: true },
  { pattern: /^\/sites\/([^/]+)$/, page: SitePage, auth: true },
  { pattern: /^\/sites\/([^/]+)\/visitors$/, page: VisitorsPage, auth: true },
  { pattern: /^\/sites\/([^/]+)\/visitors\/([^/]+)$/, page: VisitorPage, auth: true },
  { pattern: /^\/sites\/([^/]+)\/funnels\/([^/]+)$/, page: FunnelPage, auth: true },
  { pattern: /^\/sites\/([^/]+)\/settings$/, page: SiteSettingsPage, auth: true },
  { pattern: /^\/settings\/api-keys$/, page: ApiKeysPage, auth: true },
  { pattern: /^\/settings\/organization$/, page: OrganizationPage, auth: true },
  { pattern: /^\/share\/([^/]+)$/, page: SharePage, auth: false, chrome: false },
];

export function match(path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    const m = path.match(route.pattern);
    if (m) return { route, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

// The signed-in page frame: top navigation (sites, API keys, organization), theme toggle, log out, then the page.
import type { ComponentChildren } from 'preact';
import { loc } from '../router.ts';
import { logout, me } from '../state/session.ts';
import { Brand } from './brand.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

const LINKS: [string, string][] = [['/', 'Sites'], ['/settings/api-keys', 'API keys'], ['/settings/organization', 'Organization']];

export function Shell({ children }: { children: ComponentChildren }) {
  const path = loc.value.path;
  const current = (href: string) => (href === '/' ? path === '/' || path.startsWith('/sites') : path.startsWith(href));
  return (
    <div class="shell">
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topnav">
        <div class="topnav-inner">
          <Brand />
          <nav aria-label="Main">
            {LINKS.map(([href, label]) => <a href={href} aria-current={current(href) ? 'page' : undefined}>{label}</a>)}
          </nav>
          <span class="who">{me.value?.user.email}</span>
          <ThemeToggle />
          <button type="button" class="btn btn-sm" onClick={() => void logout()}>Log out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>{children}</main>
    </div>
  );
}

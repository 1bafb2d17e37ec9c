// The sub-navigation of a site's pages: Dashboard, Visitors, Settings (the current one marked).
import { loc } from '../router.ts';

export function SiteNav({ siteId, name }: { siteId: string; name: string }) {
  const base = `/sites/${siteId}`;
  const path = loc.value.path;
  const links: [string, string, boolean][] = [
    [base, 'Dashboard', path === base || path.startsWith(`${base}/funnels`)],
    [`${base}/visitors`, 'Visitors', path.startsWith(`${base}/visitors`)],
    [`${base}/settings`, 'Settings', path.startsWith(`${base}/settings`)],
  ];
  return (
    <nav class="site-nav" aria-label={`${name} pages`}>
      {links.map(([href, label, on]) => <a href={href} aria-current={on ? 'page' : undefined}>{label}</a>)}
    </nav>
  );
}

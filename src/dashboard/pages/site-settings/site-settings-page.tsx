// /sites/:id/settings: general (with retention), goals, funnels, annotations, shared links, data export, and deletion with a typed confirmation.
import { useState } from 'preact/hooks';
import { Confirm } from '../../components/confirm.tsx';
import { todayIn } from '../../components/dates.ts';
import { SiteNav } from '../../components/site-nav.tsx';
import { Snippet } from '../../components/snippet.tsx';
import { navigate } from '../../router.ts';
import { api, org } from '../../state/session.ts';
import { useSite } from '../site/use-site.ts';
import { AnnotationsSection } from './annotations-section.tsx';
import { FunnelsSection } from './funnels-section.tsx';
import { ExportSection } from './export-section.tsx';
import { GeneralSection } from './general-section.tsx';
import { GoalsSection } from './goals-section.tsx';
import { SharedLinksSection } from './shared-links-section.tsx';

const TOC: [string, string][] = [['general', 'General'], ['snippet', 'Snippet'], ['goals', 'Goals'], ['funnels', 'Funnels'], ['annotations', 'Annotations'], ['shared-links', 'Shared links'], ['export', 'Export data'], ['danger', 'Delete site']];

export function SiteSettingsPage({ params }: { params: string[] }) {
  const { site, error, reload } = useSite(params[0]!);
  const [deleting, setDeleting] = useState(false);
  if (error) return <div class="alert" role="alert">{error}</div>;
  if (!site) return <p class="muted">Loading…</p>;
  const orgId = org.value!.id;
  return (
    <>
      <SiteNav siteId={site.id} name={site.name || site.domain} />
      <h1>Settings of {site.name || site.domain}</h1>
      <div class="settings-grid">
        <nav class="settings-toc" aria-label="Settings sections">{TOC.map(([id, l]) => <a href={`#${id}`} onClick={(e) => { e.preventDefault(); document.getElementById(id)?.scrollIntoView(); }}>{l}</a>)}</nav>
        <div class="stack">
          <GeneralSection orgId={orgId} site={site} onSaved={reload} />
          <section class="card" id="snippet" aria-labelledby="snippet-title"><h2 id="snippet-title">Snippet</h2><Snippet site={site} /></section>
          <GoalsSection orgId={orgId} siteId={site.id} />
          <FunnelsSection orgId={orgId} siteId={site.id} />
          <AnnotationsSection orgId={orgId} siteId={site.id} today={todayIn(site.timezone)} />
          <SharedLinksSection orgId={orgId} siteId={site.id} />
          <ExportSection orgId={orgId} siteId={site.id} today={todayIn(site.timezone)} />
          <section class="card danger-zone" id="danger" aria-labelledby="danger-title">
            <h2 id="danger-title">Delete site</h2>
            <p>Deleting {site.domain} removes its settings and every event recorded for it. This cannot be undone.</p>
            <button type="button" class="btn btn-danger" onClick={() => setDeleting(true)}>Delete site…</button>
          </section>
        </div>
      </div>
      {deleting && (
        <Confirm title={`Delete ${site.domain}`} message="Its events, goals, funnels, annotations and shared links are deleted for good." action="Delete site for good" typed={site.domain}
          onClose={() => setDeleting(false)} onConfirm={async () => { await api.sites.remove(orgId, site.id); navigate('/', { replace: true }); }} />
      )}
    </>
  );
}

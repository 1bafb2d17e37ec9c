// The tracking snippet of a site with a copy button, and the live check that polls until the first event arrives.
import { useEffect, useState } from 'preact/hooks';
import type { Api } from '../api/client.ts';
import type { Site } from '../api/types.ts';
import { CopyButton } from './copy-button.tsx';

export const snippetOf = (site: Site) => `<script defer src="${location.origin}/tracker.js" data-site="${site.public_id}"></script>`;

export function Snippet({ site }: { site: Site }) {
  const code = snippetOf(site);
  return (
    <div class="snippet">
      <div class="snippet-head"><span id="snippet-label">Paste this into the <code>&lt;head&gt;</code> of every page of {site.domain}:</span><CopyButton text={code} label="Copy snippet" /></div>
      <pre aria-labelledby="snippet-label" tabIndex={0}><code>{code}</code></pre>
    </div>
  );
}

/** Polls the site's all-time event count every 3 s until it is above zero, then calls onLive once. */
export function LiveCheck({ api, orgId, site, onLive }: { api: Api; orgId: string; site: Site; onLive?: () => void }) {
  const [live, setLive] = useState(false);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const s = await api.analytics.stats(orgId, site.id, { period: 'all', compare: 'none' });
        if (s.metrics.events > 0) {
          setLive(true);
          onLive?.();
          return;
        }
      } catch {
        // Keep polling through transient errors.
      }
      if (!stop) timer = setTimeout(poll, 3000);
    };
    void poll();
    return () => { stop = true; clearTimeout(timer); };
  }, [site.id]);
  return (
    <div class={`live-check ${live ? 'is-live' : ''}`} role="status" aria-live="polite">
      <span class="pulse" aria-hidden="true" />
      {live ? <span><strong>Receiving events</strong> — your dashboard is filling up.</span> : <span>Waiting for the first event…</span>}
    </div>
  );
}

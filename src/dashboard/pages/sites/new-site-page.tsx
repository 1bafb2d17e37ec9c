// /sites/new: domain, time zone (the browser's by default) and currency → the snippet, copy button and live check.
import { useState } from 'preact/hooks';
import type { Site } from '../../api/types.ts';
import { LiveCheck, Snippet } from '../../components/snippet.tsx';
import { useSubmit } from '../../components/use-submit.ts';
import { api, org } from '../../state/session.ts';

export const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF', 'CNY', 'INR', 'BRL', 'MXN', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'NZD', 'SGD', 'HKD', 'KRW', 'ZAR'];

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA zone the browser knows, with UTC and the browser's own zone always present. */
export const timeZones = (): string[] => {
  let zones: string[] = [];
  try {
    zones = (Intl as any).supportedValuesOf('timeZone');
  } catch {
    // Older browsers: UTC and the browser's zone below.
  }
  return [...new Set(['UTC', browserZone(), ...zones])].sort();
};

export function NewSitePage() {
  const o = org.value!;
  const [site, setSite] = useState<Site | undefined>();
  const zones = timeZones();
  const [zone, setZone] = useState(browserZone());
  const { error, busy, submit } = useSubmit(async (f) => {
    setSite(await api.sites.create(o.id, {
      domain: String(f.get('domain')).trim().replace(/^https?:\/\//, '').replace(/\/.*$/, ''),
      timezone: String(f.get('timezone')),
      currency: String(f.get('currency')),
    }));
  }, { settle: true });
  if (site) {
    return (
      <div class="narrow">
        <h1>Add the snippet to {site.domain}</h1>
        <div class="card">
          <Snippet site={site} />
          <LiveCheck api={api} orgId={o.id} site={site} />
          <div class="row-actions spaced">
            <a class="btn btn-primary" href={`/sites/${site.id}`}>Go to the dashboard</a>
            <a class="btn" href="/">Back to sites</a>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div class="narrow">
      <h1>Add a site</h1>
      <form class="card" onSubmit={submit}>
        {error && <div class="alert" role="alert">{error}</div>}
        <div class="field">
          <label for="domain">Domain</label>
          <input id="domain" name="domain" type="text" placeholder="example.com" required autoComplete="off" aria-describedby="domain-hint" />
          <div class="hint" id="domain-hint">Without https:// or a path.</div>
        </div>
        <div class="field">
          <label for="timezone">Time zone</label>
          <select id="timezone" name="timezone" value={zone} onChange={(e) => setZone(e.currentTarget.value)}>{zones.map((z) => <option value={z}>{z}</option>)}</select>
          <div class="hint">Days and hours of the reports follow it.</div>
        </div>
        <div class="field">
          <label for="currency">Currency</label>
          <select id="currency" name="currency">{CURRENCIES.map((c) => <option value={c}>{c}</option>)}</select>
        </div>
        <button class="btn btn-primary" type="submit" disabled={busy}>{busy ? 'Adding…' : 'Add site'}</button>
      </form>
    </div>
  );
}

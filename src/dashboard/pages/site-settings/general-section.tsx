// Site settings → General: name, time zone, currency, and how many months of data are kept (retention).
import { useEffect, useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { Site } from '../../api/types.ts';
import { remember, remembered } from '../../state/remembered.ts';
import { api } from '../../state/session.ts';
import { CURRENCIES, timeZones } from '../sites/new-site-page.tsx';

export function GeneralSection({ orgId, site, onSaved }: { orgId: string; site: Site; onSaved: () => void }) {
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | undefined>();
  const [zone, setZone] = useState(site.timezone);
  const [retention, setRetention] = useState(site.retention_months == null ? '' : String(site.retention_months));
  // The page first draws the remembered sites list: take the stored value when the fresh one arrives.
  useEffect(() => setRetention(site.retention_months == null ? '' : String(site.retention_months)), [site.retention_months]);
  const months = retentionMonths(retention);
  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    if (months === undefined) {
      setMsg({ ok: false, text: 'Keep data for: enter a whole number of months from 1 to 120, or leave it empty to keep everything.' });
      document.getElementById('site-retention')?.focus();
      return;
    }
    try {
      const saved = await api.sites.patch(orgId, site.id, { name: String(f.get('name')).trim() || site.domain, timezone: zone, currency: String(f.get('currency')), retention_months: months });
      // The remembered sites list (drawn first on the next visit) gets the saved site at once.
      const list = remembered<{ sites: Site[] }>(`sites-${orgId}`);
      if (list) remember(`sites-${orgId}`, { ...list, sites: list.sites.map((s) => (s.id === saved.id ? { ...s, ...saved } : s)) });
      setMsg({ ok: true, text: 'Saved.' });
      onSaved();
    } catch (err) {
      setMsg({ ok: false, text: explain(err) });
    }
  };
  const currencies = CURRENCIES.includes(site.currency) ? CURRENCIES : [site.currency, ...CURRENCIES];
  return (
    <form class="card" id="general" onSubmit={save} aria-labelledby="general-title" noValidate>
      <h2 id="general-title">General</h2>
      {msg && <div class={msg.ok ? 'notice' : 'alert'} role={msg.ok ? 'status' : 'alert'}>{msg.text}</div>}
      <div class="field"><label for="site-domain">Domain</label><input id="site-domain" type="text" value={site.domain} disabled /></div>
      <div class="field"><label for="site-name">Name</label><input id="site-name" name="name" type="text" defaultValue={site.name} maxLength={200} /></div>
      <div class="field"><label for="site-zone">Time zone</label>
        <select id="site-zone" value={zone} onChange={(e) => setZone(e.currentTarget.value)}>{timeZones().map((z) => <option value={z}>{z}</option>)}</select></div>
      <div class="field"><label for="site-currency">Currency</label>
        <select id="site-currency" name="currency" defaultValue={site.currency}>{currencies.map((c) => <option value={c} selected={c === site.currency}>{c}</option>)}</select></div>
      <div class="field"><label for="site-retention">Keep data for (months)</label>
        <input id="site-retention" name="retention" type="number" min={1} max={120} step={1} inputMode="numeric" placeholder="Forever" value={retention}
          aria-describedby="retention-hint" aria-invalid={months === undefined ? 'true' : undefined} onInput={(e) => setRetention(e.currentTarget.value)} />
        <div class="hint" id="retention-hint">1 to 120 months; empty keeps everything.</div>
        {typeof months === 'number' && (
          <div class="notice retention-warning" role="note">
            <strong>Older data is deleted.</strong> Events and visits older than {months} month{months === 1 ? '' : 's'} are removed at the next compaction
            (within minutes of saving), and then every day. Deleted data cannot be recovered: <a href="#export">export it</a> first if you need it.
          </div>
        )}
      </div>
      <button type="submit" class="btn btn-primary">Save</button>
    </form>
  );
}

/** The field's months: null (empty: keep forever), 1–120, or undefined when it is not a valid value. */
function retentionMonths(text: string): number | null | undefined {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isInteger(n) && n >= 1 && n <= 120 ? n : undefined;
}

// Site settings → General: name, time zone, currency.
import { useState } from 'preact/hooks';
import { explain } from '../../api/client.ts';
import type { Site } from '../../api/types.ts';
import { api } from '../../state/session.ts';
import { CURRENCIES, timeZones } from '../sites/new-site-page.tsx';

export function GeneralSection({ orgId, site, onSaved }: { orgId: string; site: Site; onSaved: () => void }) {
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | undefined>();
  const [zone, setZone] = useState(site.timezone);
  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    try {
      await api.sites.patch(orgId, site.id, { name: String(f.get('name')).trim() || site.domain, timezone: zone, currency: String(f.get('currency')) });
      setMsg({ ok: true, text: 'Saved.' });
      onSaved();
    } catch (err) {
      setMsg({ ok: false, text: explain(err) });
    }
  };
  const currencies = CURRENCIES.includes(site.currency) ? CURRENCIES : [site.currency, ...CURRENCIES];
  return (
    <form class="card" id="general" onSubmit={save} aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      {msg && <div class={msg.ok ? 'notice' : 'alert'} role={msg.ok ? 'status' : 'alert'}>{msg.text}</div>}
      <div class="field"><label for="site-domain">Domain</label><input id="site-domain" type="text" value={site.domain} disabled /></div>
      <div class="field"><label for="site-name">Name</label><input id="site-name" name="name" type="text" defaultValue={site.name} maxLength={200} /></div>
      <div class="field"><label for="site-zone">Time zone</label>
        <select id="site-zone" value={zone} onChange={(e) => setZone(e.currentTarget.value)}>{timeZones().map((z) => <option value={z}>{z}</option>)}</select></div>
      <div class="field"><label for="site-currency">Currency</label>
        <select id="site-currency" name="currency" defaultValue={site.currency}>{currencies.map((c) => <option value={c} selected={c === site.currency}>{c}</option>)}</select></div>
      <button type="submit" class="btn btn-primary">Save</button>
    </form>
  );
}

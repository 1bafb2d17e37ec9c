// Automatic events: outbound link clicks, file downloads, form submits and clicks on [data-track] elements.
// Listeners run in the capture phase so a host handler that stops propagation does not hide the event.
import type { Config } from './config.ts';

export type Emit = (type: string, name: string, properties?: Record<string, string>) => void;

/** `data-track-plan="pro"` → { plan: "pro" }. */
function trackProperties(el: Element): Record<string, string> {
  const props: Record<string, string> = {};
  for (const attr of Array.from(el.attributes)) {
    const m = /^data-track-(.+)$/.exec(attr.name);
    if (m) props[m[1]] = attr.value;
  }
  return props;
}

function onClick(config: Config, emit: Emit, e: MouseEvent) {
  // auxclick also fires for right clicks; only the middle button opens the link.
  if (e.type == 'auxclick' && e.button != 1) return;
  const target = e.target as Element | null;
  if (!target || !target.closest) return;
  const tracked = config.clicks && target.closest('[data-track]');
  if (tracked) emit('click', tracked.getAttribute('data-track') || 'click', trackProperties(tracked));
  const link = target.closest('a[href],area[href]');
  if (!link) return;
  const url = new URL(link.getAttribute('href')!, location.href);
  if (!/^https?:$/.test(url.protocol)) return;
  const extension = (/\.([a-z0-9]+)$/i.exec(url.pathname) || [])[1];
  if (config.downloads && (link.hasAttribute('download') || (extension && config.extensions.includes(extension.toLowerCase())))) {
    emit('download', 'File Download', { url: url.href });
  } else if (config.outbound && url.host != location.host) {
    emit('outbound', 'Outbound Link', { url: url.href });
  }
}

export function watchAutoEvents(config: Config, emit: Emit) {
  const click = (e: Event) => {
    try {
      onClick(config, emit, e as MouseEvent);
    } catch {}
  };
  document.addEventListener('click', click, true);
  document.addEventListener('auxclick', click, true);
  if (config.forms) {
    document.addEventListener('submit', (e) => {
      const form = e.target as HTMLFormElement;
      // Attributes, not form.id/form.name: a field named "id" or "name" shadows those properties.
      emit('form_submit', 'Form Submit', { form: form.getAttribute('id') || form.getAttribute('name') || form.getAttribute('action') || '' });
    }, true);
  }
}

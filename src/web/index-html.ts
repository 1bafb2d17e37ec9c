// The one HTML page of the dashboard SPA: links the hashed CSS, preloads the entry's static chunks, loads the entry.
/** The bundle's manifest (bundle.ts writes it): the hashed entry, its CSS, its static chunks and the icon. */
export type Manifest = { entry: string; css: string[]; preload: string[]; icon: string };

export function indexHtml(m: Manifest): string {
  const css = m.css.map((c) => `<link rel="stylesheet" href="/assets/${c}">`).join('');
  const preload = m.preload.map((c) => `<link rel="modulepreload" href="/assets/${c}">`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>Tern</title><meta name="color-scheme" content="light dark">` +
    (m.icon ? `<link rel="icon" type="image/svg+xml" href="/assets/${m.icon}">` : '') +
    `${css}${preload}<script type="module" src="/assets/${m.entry}"></script></head>` +
    `<body><div id="app"></div><noscript>Tern's dashboard needs JavaScript.</noscript></body></html>`;
}

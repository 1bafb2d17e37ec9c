// GET /docs: the API reference page (Scalar's standalone build, served from node_modules: no CDN), its script and its start-up script.
import { Elysia } from 'elysia';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageHeaders } from './page-headers.ts';

const SPEC_PATH = '/api/v1/openapi.json';

/** The package's main entry is dist/index.js; its self-contained browser build sits beside it (not an export). */
function scalarPackage() {
  const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const dist = dirname(main);
  const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string };
  return { script: join(dist, 'browser', 'standalone.js'), version };
}

// Our fonts are the system's (withDefaultFonts: false), nothing is reported home (telemetry), and the
// "try it" client calls this server directly, never through Scalar's hosted proxy. The CSP allows no
// other host anyway; these settings keep the page from trying.
// Not #api-reference: the script mounts a second reference, with its default settings, on an element of that id.
const INIT = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: SPEC_PATH,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
})});\n`;

const page = (version: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tern API reference</title>
</head>
<body>
<div id="reference"></div>
<script src="/docs/scalar.js?v=${version}"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Scalar's components set style attributes and inject <style> elements, which a nonce cannot cover:
 * this page alone allows inline styles. Scripts stay 'self' only, as on every page.
 */
const DOCS_HEADERS = pageHeaders({ extra: { 'style-src': "'unsafe-inline'" } });

export const docsRoutes = () => {
  const scalar = scalarPackage();
  // ~4.9 MB plain, ~1.4 MB gzipped: read and compressed on first request, kept for the process's life.
  let script: { plain: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer> } | undefined;
  const loadScript = () => {
    if (!script) {
      const plain = new Uint8Array(readFileSync(scalar.script));
      script = { plain, gzip: new Uint8Array(gzipSync(plain)) };
    }
    return script;
  };
  const html = page(scalar.version);
  return new Elysia({ name: 'docs-page' })
    .get('/docs', () => new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', ...DOCS_HEADERS } }), { detail: { hide: true } })
    .get('/docs/init.js', () => new Response(INIT, { headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' } }), { detail: { hide: true } })
    .get('/docs/scalar.js', ({ request }) => {
      const { plain, gzip } = loadScript();
      const gzipped = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
      const headers: Record<string, string> = {
        'Content-Type': 'text/javascript; charset=utf-8',
        // The page asks for it by version (?v=…): a new package version is a new URL.
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding',
      };
      if (gzipped) headers['Content-Encoding'] = 'gzip';
      return new Response(gzipped ? gzip : plain, { headers });
    }, { detail: { hide: true } });
};

// GET / and every other dashboard URL → the SPA's index.html; GET /assets/<name>-<hash>.<ext> → an immutable asset.
import { Elysia } from 'elysia';
import { ApiError } from '../http/errors.ts';
import type { DashboardBuild, WebAsset } from './bundle.ts';
import { pageHeaders } from '../http/page-headers.ts';

/** URL prefixes the SPA's router owns (src/dashboard/router.ts); anything else keeps the API's JSON 404. */
export const APP_PATHS = ['/', '/login', '/register', '/sites', '/sites/*', '/settings/*', '/share/*'];

function assetResponse(asset: WebAsset, request: Request): Response {
  const headers: Record<string, string> = {
    'content-type': asset.type,
    // The name carries the content hash: a new build is a new URL, so browsers may keep this one forever.
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
  };
  if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    return new Response(asset.gzip, { headers: { ...headers, 'content-encoding': 'gzip' } });
  }
  return new Response(asset.body, { headers });
}

export const webRoutes = (build: () => Promise<DashboardBuild | undefined>) => {
  const page = async ({ request }: { request: Request }) => {
    const b = await build();
    if (!b) throw new ApiError(503, 'Dashboard unavailable');
    const url = new URL(request.url);
    const embed = url.pathname.startsWith('/share/') && url.searchParams.get('embed') === 'true';
    return new Response(b.html, { headers: { ...pageHeaders({ embed }), 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
  };
  let app: Elysia<any, any, any, any, any, any, any> = new Elysia({ tags: ['Dashboard'] }).get('/assets/:name', async ({ params, request }) => {
    const asset = (await build())?.assets.get(params.name);
    if (!asset) throw new ApiError(404, 'Not found');
    return assetResponse(asset, request);
  }, { detail: { hide: true } });
  for (const path of APP_PATHS) app = app.get(path, (c: any) => page(c), { detail: { hide: true } });
  return app;
};

// The HTTP answer for GET /tracker.js: gzip when accepted, ETag revalidation, and caching suited to a script tag.
import type { TrackerAsset } from './bundle.ts';

export function trackerResponse(asset: TrackerAsset, request: Request): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/javascript; charset=utf-8',
    // An hour keeps page loads cheap while a new release still reaches visitors the same day.
    'cache-control': 'public, max-age=3600',
    etag: asset.etag,
    vary: 'Accept-Encoding',
    // Lets sites load it with crossorigin/integrity (SRI) from any origin.
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
  };
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === asset.etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) {
    return new Response(asset.gzip, { headers: { ...headers, 'content-encoding': 'gzip' } });
  }
  return new Response(asset.js, { headers });
}

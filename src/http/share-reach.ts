// What a shared-link credential may call: the GET endpoints the read-only dashboard draws, and nothing else.
export const SHARED_LINKS_READ_ONLY = 'Shared links are read-only';

/**
 * Under /api/v1/organizations/{orgId}/sites/{siteId}: the reports, goal and funnel results, and the
 * annotations drawn on the chart. Not visitors or goal completions (they name individual visitors),
 * not the site's settings, keys or links, and no write.
 */
const READABLE = /^\/api\/v1\/organizations\/[^/]+\/sites\/[^/]+\/(analytics\/[a-z_]+|goals|goals\/stats|goals\/[^/]+\/stats|funnels|funnels\/[^/]+\/analysis|annotations)\/?$/;

export function shareMayRead(request: Request): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return READABLE.test(new URL(request.url).pathname);
}

// Path parameters that are not valid percent-encoded UTF-8 reach routes as their raw text, never as null.
/**
 * Elysia's router decodes each path parameter with fast-decode-uri-component, which answers null for a lone
 * surrogate (%ED%A0%80), a truncated or overlong sequence (%E0%A7, %C0%AF) or a stray '%': the route then got
 * `null` where its types promise a string, and the first `.toLowerCase()` on it was a 500. Kept raw instead,
 * such an id is just one that matches nothing, so every route answers it like any unknown id (404 after the
 * credential checks), with no check per route.
 */
export function decodePathParam(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Installs decodePathParam on the app's routers; fails loudly at start-up if Elysia's router changed shape. */
export function keepUndecodableParams(app: { router: { http: unknown; dynamic: unknown } }) {
  for (const router of [app.router.http, app.router.dynamic] as { config?: { onParam?: unknown } }[]) {
    if (!router?.config || !Array.isArray(router.config.onParam)) {
      throw new Error('Elysia router has no onParam list: path-params.ts needs updating for this Elysia version');
    }
    router.config.onParam = [decodePathParam];
  }
}

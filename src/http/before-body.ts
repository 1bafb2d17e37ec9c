// Route hooks that run a request check before the body is read: its refusal (401/403/404/429) beats a 400 for the body.
/**
 * The check runs once per request, in `parse` (before the body is read, so that a 400 for a malformed
 * body still carries the check's headers, e.g. X-RateLimit-*). An error thrown in parse would turn into
 * a PARSE 400, so a refusal is parked there (parsing is skipped) and thrown by `transform`.
 * GET requests have no parse step; transform runs the check for them.
 */
export function checkBeforeBody<T>(
  check: (request: Request, params: Record<string, string>) => T | Promise<T>,
  headersOf: (value: T) => Record<string, string>,
) {
  const outcomes = new WeakMap<Request, Promise<T>>();
  const run = (request: Request, params: Record<string, string> | undefined): Promise<T> => {
    let p = outcomes.get(request);
    if (!p) {
      p = Promise.resolve().then(() => check(request, params ?? {}));
      p.catch(() => {});
      outcomes.set(request, p);
    }
    return p;
  };
  const hooks = {
    parse: [
      async ({ request, params, set }: any) => {
        const ok = await run(request, params).then((v) => (Object.assign(set.headers, headersOf(v)), true), () => false);
        return ok ? undefined : {};
      },
    ],
    async transform({ request, params, set }: any) {
      Object.assign(set.headers, headersOf(await run(request, params)));
    },
  };
  return { run, hooks };
}

// Notices single-page-app navigations: history.pushState/replaceState, popstate, and hashchange when hash routing is on.
export function watchNavigation(onNavigate: () => void, hashRouting: boolean) {
  const wrap = (method: 'pushState' | 'replaceState') => {
    const original = history[method];
    history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
      // The host's own call may throw (e.g. a cross-origin URL): that error is theirs, so it propagates unchanged.
      const result = original.apply(this, args);
      onNavigate();
      return result;
    };
  };
  wrap('pushState');
  wrap('replaceState');
  addEventListener('popstate', onNavigate);
  if (hashRouting) addEventListener('hashchange', onNavigate);
}

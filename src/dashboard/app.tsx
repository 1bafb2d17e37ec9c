// The app root: picks the page for the current URL, and sends pages that need a session to /login (and back after).
import { useEffect } from 'preact/hooks';
import { Shell } from './components/shell.tsx';
import { match } from './routes.ts';
import { loc, navigate } from './router.ts';
import { loginUrl, me } from './state/session.ts';

function NotFound() {
  return <div class="card empty"><h1>Page not found</h1><p>There is nothing at this address.</p><a class="btn" href="/">Back to your sites</a></div>;
}

export function App() {
  const path = loc.value.path;
  const found = match(path);
  const session = me.value;
  const needsLogin = (!found || found.route.auth) && session === null;
  useEffect(() => {
    if (needsLogin) navigate(loginUrl(), { replace: true });
    else if (found?.route.guest && session) navigate('/', { replace: true });
  }, [needsLogin, path, session]);
  if (session === undefined && found?.route.auth !== false) return <div class="empty" aria-busy="true">Loading…</div>;
  if (needsLogin) return null;
  if (!found) return <Shell><NotFound /></Shell>;
  const Page = found.route.page;
  if (found.route.chrome === false) return <Page params={found.params} />;
  return <Shell><Page params={found.params} /></Shell>;
}

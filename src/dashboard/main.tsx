// Entry of the dashboard SPA: styles, theme, who is signed in, then the app (served at / by src/web/).
import './styles/theme.css';
import './styles/base.css';
import './styles/dashboard.css';
import 'uplot/dist/uPlot.min.css';
import { render } from 'preact';
import { App } from './app.tsx';
import { loc } from './router.ts';
import { refreshMe } from './state/session.ts';
import { applyTheme } from './state/theme.ts';

applyTheme();
const app = document.getElementById('app')!;
// Shared links carry their own credential: no /auth/me round trip (and no 401) for them.
if (!loc.value.path.startsWith('/share/')) void refreshMe();
render(<App />, app);

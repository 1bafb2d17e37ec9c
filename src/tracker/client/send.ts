// Delivers one JSON payload: navigator.sendBeacon (text/plain, outlives the page), else fetch with keepalive.
// A string body keeps both a CORS "simple request": no preflight, no cookies needed.
export function send(url: string, payload: object) {
  const body = JSON.stringify(payload);
  try {
    if (navigator.sendBeacon && navigator.sendBeacon(url, body)) return;
  } catch {}
  try {
    fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit' }).catch(() => {});
  } catch {}
}

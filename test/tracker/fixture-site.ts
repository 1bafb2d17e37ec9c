// A customer's web site for the browser tests: plain HTML pages on 127.0.0.1 that load /tracker.js from Tern.
export type FixtureSite = { url: string; stop(): void };

const tall = '<div style="height:3000px">long content</div>';

function page(title: string, script: string, body: string, head = ''): Response {
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}${script}</head><body>${body}</body></html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

/** `attrs` are extra attributes of the <script> tag, e.g. `data-allow-localhost data-allow-automation`. */
export function startFixtureSite(ternUrl: string, siteId: string, attrs: string): FixtureSite {
  const script = `<script defer src="${ternUrl}/tracker.js" data-site="${siteId}" ${attrs}></script>`;
  // The queue stub customers paste before the script, so calls made before it loads are kept.
  const stub = `<script>window.tern=window.tern||function(){(tern.q=tern.q||[]).push(arguments)};tern('track','Early Call',{source:'queue'})</script>`;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/files/report.pdf') return new Response('%PDF-1.4 fake', { headers: { 'content-type': 'application/pdf' } });
      if (path === '/thanks') {
        return page('Thanks', script, `<h1>Thanks</h1><a id="out" href="https://partner.example.org/landing">partner</a>`);
      }
      if (path === '/hash') return page('Hash app', script.replace('<script ', '<script data-hash '), `<h1>Hash</h1>${tall}`);
      if (path === '/plain') return page('Plain', script, '<h1>Plain</h1>');
      if (path === '/double') return page('Double', script + script, '<h1>Script included twice</h1>');
      // Every other path is the single-page app (a server-side fallback, as SPAs have).
      return page(
        'Home',
        script,
        `<h1>Home</h1>
         <a id="download" href="/files/report.pdf" download>report</a>
         <button id="cta" data-track="Signup CTA" data-track-plan="pro" data-track-position="hero">Sign up</button>
         <form id="signup" action="/thanks" method="post"><input name="email" value="a@b.c"><button id="submit">Go</button></form>
         ${tall}`,
        stub,
      );
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

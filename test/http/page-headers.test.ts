// The pages' security headers: strict CSP everywhere, framing allowed only for embed pages.
import { expect, test } from 'bun:test';
import { pageHeaders } from '../../src/http/page-headers.ts';

test('a page: strict CSP, no framing, nosniff, same-origin referrer', () => {
  const h = pageHeaders({ embed: false });
  expect(h['Content-Security-Policy']).toBe(
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
  expect(h['X-Frame-Options']).toBe('DENY');
  expect(h['X-Content-Type-Options']).toBe('nosniff');
  expect(h['Referrer-Policy']).toBe('same-origin');
  expect(pageHeaders()).toEqual(h);
});

test('an embed page may be framed by any site; the rest of the policy stays', () => {
  const h = pageHeaders({ embed: true });
  expect(h['Content-Security-Policy']).toEndWith('; frame-ancestors *');
  expect(h['Content-Security-Policy']).toStartWith("default-src 'self'; script-src 'self'; style-src 'self';");
  expect(h['X-Frame-Options']).toBeUndefined();
  expect(h['X-Content-Type-Options']).toBe('nosniff');
});

test('extra sources add to a directive', () => {
  expect(pageHeaders({ extra: { 'style-src': "'unsafe-inline'" } })['Content-Security-Policy']).toContain("style-src 'self' 'unsafe-inline';");
});

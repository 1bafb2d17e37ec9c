// IP geolocation against the bundled DB-IP Lite database.
import { describe, expect, test } from 'bun:test';
import { geolocate } from '../../src/ingest/enrich/geo.ts';

describe('geolocate', () => {
  test.each([
    ['8.8.8.8', 'US'],
    ['81.2.69.142', 'GB'],
    ['::ffff:81.2.69.142', 'GB'],
    ['2001:4860:4860::8888', expect.stringMatching(/^[A-Z]{2}$/)],
  ])('%s → country %p', (ip, country) => {
    const g = geolocate(ip);
    expect(g.country).toEqual(country);
    expect(typeof g.city).toBe('string');
  });

  test('a UK address carries region and city names', () => {
    expect(geolocate('81.2.69.142')).toEqual({ country: 'GB', region: 'England', city: 'London' });
  });

  test.each(['127.0.0.1', '10.1.2.3', '192.168.0.10', '::1', 'fe80::1', '', 'not-an-ip', '999.1.1.1', '1.2.3'])(
    '%p → nulls',
    (ip) => {
      expect(geolocate(ip)).toEqual({ country: null, region: null, city: null });
    },
  );

  test('null and undefined → nulls', () => {
    expect(geolocate(null)).toEqual({ country: null, region: null, city: null });
    expect(geolocate(undefined)).toEqual({ country: null, region: null, city: null });
  });
});

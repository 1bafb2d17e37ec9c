// Visitor countries: traffic share, /24 blocks that DB-IP Lite places in the country (checked by
// test/ingest/enrich-generator.test.ts), the local Google domain and the shop currency.
import { Weighted } from './random.ts';

export type Country = { code: string; blocks: string[]; google: string; currency: 'USD' | 'EUR' | 'GBP' };

const C = (code: string, weight: number, google: string, currency: Country['currency'], blocks: string[]) =>
  [{ code, blocks, google, currency }, weight] as const;

export const COUNTRIES = Weighted.of<Country>([
  C('US', 30, 'www.google.com', 'USD', ['12.69.80', '167.13.252', '55.197.246']),
  C('GB', 8, 'www.google.co.uk', 'GBP', ['81.2.69', '62.69.112', '25.158.113']),
  C('DE', 8, 'www.google.de', 'EUR', ['80.159.126', '84.165.145', '53.50.2']),
  C('FR', 6, 'www.google.fr', 'EUR', ['81.194.246', '88.167.79', '80.15.211']),
  C('IN', 8, 'www.google.co.in', 'USD', ['61.1.48', '106.200.82', '3.108.35']),
  C('BR', 5, 'www.google.com.br', 'USD', ['201.52.18', '179.216.36', '187.127.48']),
  C('CA', 4, 'www.google.ca', 'USD', ['97.110.74', '70.68.132', '69.156.172']),
  C('NL', 3, 'www.google.nl', 'EUR', ['145.5.208', '37.1.206']),
  C('JP', 4, 'www.google.co.jp', 'USD', ['221.132.180', '126.146.221']),
  C('AU', 3, 'www.google.com.au', 'USD', ['120.157.79', '122.106.212']),
  C('ES', 3, 'www.google.es', 'EUR', ['84.89.137', '13.121.107']),
  C('IT', 3, 'www.google.it', 'EUR', ['2.35.161', '194.152.49']),
  C('PL', 2, 'www.google.pl', 'EUR', ['83.12.57', '147.214.132']),
  C('SE', 2, 'www.google.se', 'EUR', ['144.63.94', '159.107.152']),
  C('MX', 2, 'www.google.com.mx', 'USD', ['187.143.214', '187.218.41']),
  C('ID', 2, 'www.google.co.id', 'USD', ['36.70.100', '103.145.198']),
  C('KR', 2, 'www.google.co.kr', 'USD', ['122.46.196', '59.25.209']),
  C('TR', 2, 'www.google.com.tr', 'EUR', ['193.255.138', '195.46.139']),
  C('CH', 1, 'www.google.ch', 'EUR', ['56.240.29', '146.159.79']),
  C('ZA', 1, 'www.google.co.za', 'USD', ['41.132.71', '197.71.222']),
]);

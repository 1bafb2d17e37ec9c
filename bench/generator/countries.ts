// Visitor countries: traffic share, /24 blocks that DB-IP Lite places in the country (checked by
// test/ingest/enrich-generator.test.ts), the local Google domain and the shop currency.
import { Weighted } from './random.ts';

export type Country = { code: string; blocks: string[]; google: string; currency: 'USD' | 'EUR' | 'GBP' };

const C = (code: string, weight: number, google: string, currency: Country['currency'], blocks: string[]) =>
  [{ code, blocks, google, currency }, weight] as const;

export const COUNTRIES = Weighted.of<Country>([
  C('US', 30, 'www.google.com', 'USD', ['12.69.80', '167.13.252', '55.197.246', '137.225.83', '6.85.164']),
  C('GB', 8, 'www.google.co.uk', 'GBP', ['81.2.69', '62.69.112', '25.158.113', '174.144.244', '148.162.133', '158.230.199']),
  C('DE', 8, 'www.google.de', 'EUR', ['80.159.126', '84.165.145', '53.50.2', '44.150.240', '134.34.181']),
  C('FR', 6, 'www.google.fr', 'EUR', ['81.194.246', '88.167.79', '80.15.211', '4.251.135', '91.168.111']),
  C('IN', 8, 'www.google.co.in', 'USD', ['61.1.48', '106.200.82', '3.108.35', '49.39.217', '4.247.194']),
  C('BR', 5, 'www.google.com.br', 'USD', ['201.52.18', '179.216.36', '187.127.48', '45.239.233', '177.63.18']),
  C('CA', 4, 'www.google.ca', 'USD', ['97.110.74', '70.68.132', '69.156.172', '156.57.178', '104.163.233']),
  C('NL', 3, 'www.google.nl', 'EUR', ['145.5.208', '37.1.206', '145.81.118', '18.239.90', '24.132.11']),
  C('JP', 4, 'www.google.co.jp', 'USD', ['221.132.180', '126.146.221', '219.59.246', '184.26.27', '133.181.185']),
  C('AU', 3, 'www.google.com.au', 'USD', ['120.157.79', '122.106.212', '160.206.139', '144.132.72', '120.147.3']),
  C('ES', 3, 'www.google.es', 'EUR', ['84.89.137', '13.121.107', '90.175.239', '80.103.9', '87.218.81']),
  C('IT', 3, 'www.google.it', 'EUR', ['2.35.161', '194.152.49', '185.107.147', '150.178.218', '37.32.93']),
  C('PL', 2, 'www.google.pl', 'EUR', ['83.12.57', '147.214.132', '79.186.120', '157.25.124', '80.68.235']),
  C('SE', 2, 'www.google.se', 'EUR', ['144.63.94', '159.107.152', '78.77.202', '138.103.85', '90.224.76']),
  C('MX', 2, 'www.google.com.mx', 'USD', ['187.143.214', '187.218.41', '148.231.108', '189.133.89', '187.242.228']),
  C('ID', 2, 'www.google.co.id', 'USD', ['36.70.100', '103.145.198', '108.137.182', '114.3.152', '180.244.152']),
  C('KR', 2, 'www.google.co.kr', 'USD', ['122.46.196', '59.25.209', '1.212.88', '211.48.216', '161.118.106']),
  C('TR', 2, 'www.google.com.tr', 'EUR', ['193.255.138', '195.46.139', '151.250.131', '31.176.6', '88.246.136']),
  C('CH', 1, 'www.google.ch', 'EUR', ['56.240.29', '146.159.79', '178.82.201', '162.21.65', '166.12.131']),
  C('ZA', 1, 'www.google.co.za', 'USD', ['41.132.71', '197.71.222', '196.223.96', '16.28.92', '41.132.191']),
]);

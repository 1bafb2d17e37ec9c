// The client's IP: the first X-Forwarded-For hop behind a trusted proxy, else the socket peer.
import { socketAddress } from '../runtime/index.ts';

export function clientIp(request: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for');
    const first = xff?.split(',')[0]?.trim();
    if (first) return first;
  }
  return socketAddress(request).replace(/^::ffff:/, '');
}

// The client's IP: the first X-Forwarded-For hop behind a trusted proxy, else the socket peer.
import { socketAddress } from '../runtime/index.ts';

/** `peer`: the socket peer's address, when the caller has it (a DirectRoute); else looked up by request. */
export function clientIp(request: Request, trustProxy: boolean, peer: () => string = () => socketAddress(request)): string {
  if (trustProxy) {
    const xff = request.headers.get('x-forwarded-for');
    const comma = xff ? xff.indexOf(',') : -1;
    const first = (comma < 0 ? xff : xff!.slice(0, comma))?.trim();
    if (first) return first;
  }
  return peer().replace(/^::ffff:/, '');
}

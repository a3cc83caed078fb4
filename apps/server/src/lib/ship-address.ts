import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';

/**
 * Where a shore may not reach a ship (docs/security.md#a-followed-ship): loopback (this machine's
 * own services), link-local (cloud metadata at 169.254.169.254, the link's neighbours) and the
 * unspecified address. Private networks (10/8, 172.16/12, 192.168/16, fc00::/7) stay allowed:
 * ships are reached over VPNs and satellite links on them.
 */
const refused = new BlockList();
refused.addSubnet('127.0.0.0', 8, 'ipv4');
refused.addSubnet('169.254.0.0', 16, 'ipv4');
refused.addSubnet('0.0.0.0', 8, 'ipv4');
refused.addAddress('::1', 'ipv6');
refused.addAddress('::', 'ipv6');
refused.addSubnet('fe80::', 10, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`, `::ffff:7f00:1`), if any. */
function mappedIpv4(address: string): string | null {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** Whether an IP address is one a ship may not have. */
export function isRefusedShipIp(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = mappedIpv4(bare);
  if (v4) return refused.check(v4, 'ipv4');
  const family = isIP(bare);
  if (family === 4) return refused.check(bare, 'ipv4');
  if (family === 6) return refused.check(bare, 'ipv6');
  return false;
}

export const refusedShipAddressMessage =
  "A ship's address may not be a loopback or link-local address (this server or its network link)";

/** Whether a ship's URL names a refused host outright (a literal address, or `localhost`). */
export function isRefusedShipUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isRefusedShipIp(host);
}

/**
 * A DNS lookup for requests to ships that fails when a name resolves to a refused address, so a
 * name pointed at 127.0.0.1 (or changed to it later) is refused at connect time as well.
 */
export const shipLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      callback(err, '', 0);
      return;
    }
    const list = addresses;
    if (list.length === 0 || list.some((a) => isRefusedShipIp(a.address))) {
      callback(Object.assign(new Error(refusedShipAddressMessage), { code: 'EREFUSEDADDRESS' }), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
};

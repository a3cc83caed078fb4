import { existsSync } from 'node:fs';

/**
 * A real peer (influxd, gpsfake, ffmpeg, nginx, …) for a test. `npm test` installs the Debian packages as root
 * (scripts/peers.mjs); where one is still missing, the suite skips with one line, except in CI, where it fails.
 */
export function peer(command: string): string | null {
  for (const dir of ['/usr/bin', '/usr/sbin', '/bin', '/sbin', '/usr/local/bin'])
    if (existsSync(`${dir}/${command}`)) return `${dir}/${command}`;
  if (process.env.CI) throw new Error(`${command} is missing: CI must install it (scripts/peers.mjs)`);
  console.warn(`${command} is missing: skipping the tests that need it (scripts/peers.mjs names its package)`);
  return null;
}

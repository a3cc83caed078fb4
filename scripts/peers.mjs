// The real peers the tests start (Debian packages), installed by `npm test` as root the way Chromium is.
// One list, one place: a test that needs a peer names its command here and asks test/peers.ts for it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** command → Debian package that provides it. */
export const debianPeers = {
  chromium: 'chromium',
  influxd: 'influxdb',
  gpsfake: 'gpsd-clients',
  gpsd: 'gpsd',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
  nginx: 'nginx',
  haproxy: 'haproxy',
  xmllint: 'libxml2-utils',
  ip: 'iproute2',
  mosquitto: 'mosquitto',
};

export function which(cmd) {
  for (const dir of ['/usr/bin', '/usr/sbin', '/bin', '/sbin', '/usr/local/bin'])
    if (existsSync(`${dir}/${cmd}`)) return `${dir}/${cmd}`;
  return null;
}

/** Installs the missing peers' packages when running as root on Debian; returns the commands still missing. */
export function ensurePeers(commands = Object.keys(debianPeers), log = console.log) {
  const missing = commands.filter((c) => !which(c));
  const packages = [...new Set(missing.map((c) => debianPeers[c]).filter(Boolean))];
  if (packages.length && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    log(`== Tests need real peers: installing Debian's ${packages.join(', ')} (apt-get)`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const opts = { stdio: 'inherit', env };
    if (spawnSync('apt-get', ['update', '-qq'], opts).status === 0)
      spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], opts);
  }
  const still = commands.filter((c) => !which(c));
  for (const c of still)
    log(
      `== ${c} is missing: run \`sudo apt-get install -y ${debianPeers[c]}\`; tests that need it fail in CI and skip elsewhere`,
    );
  return still;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(ensurePeers().length ? 1 : 0);

import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import net from 'node:net';

/**
 * Hosts of their own on one machine: a Linux bridge with an address in the root namespace (the
 * "gateway", where the balancer and the database relay listen) and one network namespace per host,
 * joined to the bridge by a veth pair, each with its own address on the bridge's /24. Needs root
 * and `ip` (iproute2). Everything made here carries this process's id in its name, so a run that
 * died without cleaning up is swept by the next one.
 */
const namePrefix = 'bathylog-hosts-';

function ip(args: string[], opts: { check?: boolean } = {}): string {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if ((opts.check ?? true) && r.status !== 0)
    throw new Error(`ip ${args.join(' ')}: ${(r.stderr || r.stdout || `exit ${r.status}`).trim()}`);
  return r.stdout ?? '';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Interface names are at most 15 characters: "bh" + the pid in base 36 + a suffix. */
function linkTag(pid: number): string {
  return `bh${pid.toString(36)}`;
}

/**
 * Why hosts cannot be made here (not root, no `ip`, namespaces refused), or null when they can.
 * Probes by making and removing one namespace.
 */
export function networkUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'network namespaces need root (`ip netns add`)';
  if (spawnSync('ip', ['-V']).status !== 0) return '`ip` (iproute2) is missing';
  const probe = `${namePrefix}${process.pid}-probe`;
  const made = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (made.status !== 0) return `\`ip netns add\` is not permitted here: ${(made.stderr ?? '').trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return null;
}

/** Removes namespaces and bridges left by runs whose process is gone (a killed test run). */
export function sweepStale(): void {
  for (const line of ip(['netns', 'list'], { check: false }).split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const m = new RegExp(`^${namePrefix}(\\d+)-`).exec(name);
    if (!m || alive(Number(m[1]))) continue;
    for (const pid of ip(['netns', 'pids', name], { check: false }).split(/\s+/).filter(Boolean)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    ip(['netns', 'del', name], { check: false });
  }
  for (const line of ip(['-o', 'link', 'show', 'type', 'bridge'], { check: false }).split('\n')) {
    const m = /^\d+: (bh([0-9a-z]+)br)[:@]/.exec(line);
    if (m && !alive(parseInt(m[2]!, 36))) ip(['link', 'del', m[1]!], { check: false });
  }
}

export interface NetHost {
  /** The namespace's name (for `ip netns exec`). */
  ns: string;
  address: string;
  /** The veth end on the bridge's side: set it down to cut the host off the network. */
  link: string;
}

export class Network {
  readonly hosts: NetHost[] = [];
  private readonly children = new Set<ChildProcess>();
  private destroyed = false;
  private readonly onExit = () => this.destroy();

  private constructor(
    /** The first three octets of the /24, e.g. "10.171.4". */
    readonly subnet: string,
    readonly bridge: string,
  ) {
    process.once('exit', this.onExit);
  }

  /** The bridge's own address (root namespace): what the hosts reach the balancer and database at. */
  get gateway(): string {
    return `${this.subnet}.1`;
  }

  static create(): Network {
    sweepStale();
    const used = ip(['-4', '-o', 'addr', 'show']);
    let subnet = '';
    for (let i = 0; i < 50 && !subnet; i++) {
      const candidate = `10.${100 + Math.floor(Math.random() * 120)}.${Math.floor(Math.random() * 256)}`;
      if (!used.includes(` ${candidate}.`)) subnet = candidate;
    }
    if (!subnet) throw new Error('no free 10.x.y.0/24 for the test network');
    const bridge = `${linkTag(process.pid)}br`;
    const network = new Network(subnet, bridge);
    try {
      ip(['link', 'add', bridge, 'type', 'bridge']);
      ip(['addr', 'add', `${network.gateway}/24`, 'dev', bridge]);
      ip(['link', 'set', bridge, 'up']);
    } catch (err) {
      network.destroy();
      throw err;
    }
    return network;
  }

  /** A namespace with its own address on the bridge (and its loopback up). */
  addHost(name: string): NetHost {
    const index = this.hosts.length;
    const ns = `${namePrefix}${process.pid}-${name}`;
    const link = `${linkTag(process.pid)}${index}h`;
    const inner = `${linkTag(process.pid)}${index}n`;
    const address = `${this.subnet}.${10 + index}`;
    ip(['netns', 'add', ns]);
    const host = { ns, address, link };
    this.hosts.push(host);
    ip(['link', 'add', link, 'type', 'veth', 'peer', 'name', inner]);
    ip(['link', 'set', inner, 'netns', ns]);
    ip(['link', 'set', link, 'master', this.bridge]);
    ip(['link', 'set', link, 'up']);
    ip(['-n', ns, 'addr', 'add', `${address}/24`, 'dev', inner]);
    ip(['-n', ns, 'link', 'set', inner, 'up']);
    ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    return host;
  }

  /** Runs a command inside a host's namespace (`ip netns exec` hands over to it: the child is the command). */
  spawn(host: NetHost, command: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
    const child = spawn('ip', ['netns', 'exec', host.ns, command, ...args], opts);
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Cuts a host off the network (its processes keep running) or joins it again. */
  setLink(host: NetHost, up: boolean): void {
    ip(['link', 'set', host.link, up ? 'up' : 'down']);
  }

  /** Kills what runs in the namespaces and removes them and the bridge. Safe to call twice. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    process.off('exit', this.onExit);
    for (const child of this.children) child.kill('SIGKILL');
    for (const host of this.hosts) {
      for (const pid of ip(['netns', 'pids', host.ns], { check: false }).split(/\s+/).filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      ip(['link', 'del', host.link], { check: false });
      ip(['netns', 'del', host.ns], { check: false });
    }
    ip(['link', 'del', this.bridge], { check: false });
  }
}

/** A TCP port free on `address` right now. */
export function freePortOn(address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: address }, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

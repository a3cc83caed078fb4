/**
 * The load generator of the several-hosts benchmark (hosts.bench.ts), run by it inside a network
 * namespace of its own, so that its CPU and sockets are not the servers' and every byte crosses
 * the bridge and the balancer as a ship's or a shore's clients would.
 *
 * Argument: JSON {balancer, sockets, writers, seconds, rate}. Logs in through the balancer, opens
 * `sockets` websockets through it (subscribed to newEvents as the Python scripts do), then
 *   1. throughput: `writers` clients POST events back to back for `seconds`: events/s accepted;
 *   2. delivery: events at a steady `rate` per second for `seconds`: for every (event, socket) pair
 *      the time from just before the POST to the socket's pub frame, split by whether the socket
 *      sits on the host that took the POST or on another one.
 * Prints one JSON line with the figures.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

interface Args {
  balancer: string;
  sockets: number;
  writers: number;
  seconds: number;
  rate: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const api = `${args.balancer}/sealog-server/api/v1`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  const v = s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? 0;
  return Math.round(v * 10) / 10;
}

async function main(): Promise<void> {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  /** marker → [sent at, host that took the POST]; per socket: marker → arrival. */
  const sent = new Map<string, { at: number; host: string }>();
  const sockets: Array<{ host: string; arrivals: Map<string, number> }> = [];
  const wsUrl = `${args.balancer.replace(/^http/, 'ws')}/ws`;
  for (let i = 0; i < args.sockets; i++) {
    const entry = { host: '', arrivals: new Map<string, number>() };
    sockets.push(entry);
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      ws.on('upgrade', (res) => {
        entry.host = String(res.headers['x-bathylog-host'] ?? '');
      });
      ws.on('error', reject);
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as {
          type: string;
          id?: unknown;
          message?: { event_free_text?: string };
        };
        if (frame.type === 'hello') resolve();
        else if (frame.type === 'ping') ws.send(JSON.stringify({ type: 'ping', id: frame.id }));
        else if (frame.type === 'pub' && frame.message?.event_free_text)
          entry.arrivals.set(frame.message.event_free_text, performance.now());
      });
      ws.on('open', () =>
        ws.send(
          JSON.stringify({
            type: 'hello',
            id: 1,
            version: '2',
            auth: { headers: { Authorization: `Bearer ${token}` } },
            subs: ['/ws/status/newEvents'],
          }),
        ),
      );
    });
  }
  const perHost: Record<string, number> = {};
  for (const s of sockets) perHost[s.host] = (perHost[s.host] ?? 0) + 1;

  const postOne = async (marker: string, record: boolean): Promise<boolean> => {
    const at = performance.now();
    try {
      const res = await fetch(`${api}/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ event_value: 'BENCH', event_free_text: marker }),
      });
      await res.arrayBuffer();
      if (record) sent.set(marker, { at, host: res.headers.get('x-bathylog-host') ?? '' });
      return res.status === 201;
    } catch {
      return false;
    }
  };

  // 1. Throughput.
  let accepted = 0;
  let refused = 0;
  const until = Date.now() + args.seconds * 1000;
  await Promise.all(
    Array.from({ length: args.writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        if (await postOne(`t-${w}-${i}`, false)) accepted++;
        else refused++;
      }
    }),
  );
  const eventsPerSecond = Math.round((accepted / args.seconds) * 10) / 10;
  await sleep(2000);

  // 2. Delivery at a steady rate.
  const total = args.rate * args.seconds;
  const started = performance.now();
  const posts: Array<Promise<boolean>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / args.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    posts.push(postOne(`d-${i}`, true));
  }
  await Promise.all(posts);
  await sleep(3000);
  const same: number[] = [];
  const other: number[] = [];
  let missing = 0;
  for (const [marker, { at, host }] of sent) {
    for (const s of sockets) {
      const arrived = s.arrivals.get(marker);
      if (arrived === undefined) missing++;
      else (s.host === host ? same : other).push(arrived - at);
    }
  }
  const summary = (xs: number[]) => ({ n: xs.length, p50: percentile(xs, 0.5), p99: percentile(xs, 0.99) });
  process.stdout.write(
    `${JSON.stringify({
      socketsPerHost: perHost,
      throughput: { writers: args.writers, seconds: args.seconds, accepted, refused, eventsPerSecond },
      delivery: {
        rate: args.rate,
        events: sent.size,
        missing,
        sameHost: summary(same),
        otherHost: summary(other),
        all: summary([...same, ...other]),
      },
    })}\n`,
  );
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

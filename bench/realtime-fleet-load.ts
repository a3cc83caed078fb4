/**
 * The load generator of realtime-fleet.bench.ts, run inside its own network namespace (`ip netns
 * exec`), so that its sockets reach the servers over a veth link as a remote client's would.
 *
 * One process opens its share of the websockets (spread over the servers in FLEET_SERVERS), says
 * hello as the Python scripts do and subscribes to /ws/status/newEvents. The poster (FLEET_POST=1)
 * also POSTs events to the first server at FLEET_RATE per second, each carrying the moment it was
 * sent in its free text (milliseconds on the machine's clock: every process of the bench runs on
 * the same machine, so arrival minus that moment is the delivery time). Frames are read without a
 * JSON parse (the generator must not be the bottleneck it measures). At the end it prints one JSON
 * line: delivery latencies (ms, Float32 base64), POST times, counts.
 *
 * Env: FLEET_SERVERS (comma-separated base URLs), FLEET_SOCKETS, FLEET_TOKEN, FLEET_POST (0|1),
 * FLEET_RATE, FLEET_SECONDS, FLEET_READY_DIR and FLEET_PROCESSES (every process marks itself ready
 * there once its sockets are subscribed; posting starts 2 s after all are).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

const servers = (process.env.FLEET_SERVERS ?? '').split(',').filter(Boolean);
const count = Number(process.env.FLEET_SOCKETS ?? 100);
const token = process.env.FLEET_TOKEN ?? '';
const posts = process.env.FLEET_POST === '1';
const rate = Number(process.env.FLEET_RATE ?? 20);
const seconds = Number(process.env.FLEET_SECONDS ?? 15);
const readyDir = process.env.FLEET_READY_DIR ?? '';
const processes = Number(process.env.FLEET_PROCESSES ?? 1);
const channel = '/ws/status/newEvents';
const marker = '"event_free_text":"sent ';

/** The machine's clock in ms with sub-ms resolution, comparable across processes. */
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const latencies: number[] = [];
let pubs = 0;
let closed = 0;

function open(i: number): Promise<WebSocket> {
  const base = servers[i % servers.length]!.replace(/^http/, 'ws');
  const ws = new WebSocket(`${base}/ws`, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () =>
      ws.send(
        JSON.stringify({
          type: 'hello',
          id: `h${i}`,
          auth: { headers: { Authorization: `Bearer ${token}` } },
          version: '2',
          subs: [channel],
        }),
      ),
    );
    ws.once('close', () => closed++);
    ws.on('message', (data: Buffer) => {
      const now = clock();
      const text = data.toString('latin1');
      const at = text.indexOf(marker);
      if (at >= 0) {
        const sent = Number(text.slice(at + marker.length, text.indexOf('"', at + marker.length)));
        latencies.push(now - sent);
        pubs++;
      } else if (text.startsWith('{"type":"ping"')) ws.send(`{"type":"ping","id":"p${i}"}`);
      else if (text.includes('"type":"hello"')) resolve(ws);
      else if (text.includes('"statusCode"')) reject(new Error(text.slice(0, 200)));
    });
  });
}

async function main(): Promise<void> {
  const sockets: WebSocket[] = [];
  // In batches, so the servers' accept queues and the hello checks are not flooded at once.
  for (let i = 0; i < count; i += 100) {
    const batch = await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, k) => open(i + k)));
    sockets.push(...batch);
  }
  process.stderr.write(`[load ${process.pid}] ${sockets.length} sockets subscribed\n`);
  const postMs: number[] = [];
  let failed = 0;
  const total = Math.round(rate * seconds);
  // Everyone's sockets first: opening 5,000 must not overlap the measured part.
  writeFileSync(path.join(readyDir, String(process.pid)), '');
  while (readdirSync(readyDir).length < processes) await sleep(100);
  await sleep(2000);
  if (posts) {
    const t0 = clock();
    const pending: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / rate - clock();
      if (wait > 0) await sleep(wait);
      const at = clock();
      pending.push(
        fetch(`${servers[0]}/sealog-server/api/v1/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ event_value: 'FLEET_BENCH', event_free_text: `sent ${at.toFixed(3)}` }),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            if (res.status === 201) postMs.push(clock() - at);
            else failed++;
          },
          () => void failed++,
        ),
      );
    }
    await Promise.all(pending);
  } else {
    await sleep(seconds * 1000);
  }
  // The last pubs: until every socket has every event, or 15 s.
  const expected = total * sockets.length;
  const closedEarly = closed;
  for (let waited = 0; waited < 15_000 && pubs < expected; waited += 100) await sleep(100);
  for (const ws of sockets) ws.terminate();
  const samples = Buffer.from(new Float32Array(latencies).buffer).toString('base64');
  process.stdout.write(
    JSON.stringify({ sockets: sockets.length, pubs, closed: closedEarly, postMs, failedPosts: failed, samples }) + '\n',
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

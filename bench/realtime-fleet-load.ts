/**
 * The load generator of realtime-fleet.bench.ts, run inside its own network namespace (`ip netns
 * exec`), so that its sockets reach the servers over a veth link as a remote client's would.
 *
 * One process opens its share of the websockets (spread over the servers in FLEET_SERVERS), says
 * hello as the Python scripts do and subscribes to /ws/status/newEvents. The poster (FLEET_POST=1)
 * also POSTs events to the first server at FLEET_RATE per second, each carrying the moment it was
 * sent in its free text (milliseconds on the machine's clock: every process of the bench runs on
 * the same machine, so arrival minus that moment is the delivery time). At the end it prints one
 * JSON line: delivery latencies (ms, Float32 base64), each event's first and last arrival per server,
 * POST times, counts, its own CPU time.
 *
 * The generator must not be the bottleneck it measures: at 5,000 sockets and 20 events/s it reads
 * 100,000 frames a second. So it speaks websocket on plain TCP sockets itself rather than through
 * a websocket library: the server's frames are unmasked, so it walks the frame headers in the
 * bytes as they arrive and, in a `pub` frame, only finds the free-text marker and reads the digits
 * after it (no string, no JSON parse, no copy unless a frame is split across reads). Reads land
 * in one buffer shared by every socket (net's `onread`: no Buffer and no stream event per read),
 * and each event's first and last arrival is kept under its send time as a number (no string per
 * frame): the generator's CPU per frame is the measurement's cost, on the servers' cores. Its own
 * frames (hello, ping replies) are masked as RFC 6455 requires of a client.
 *
 * Env: FLEET_SERVERS (comma-separated base URLs), FLEET_SOCKETS, FLEET_TOKEN (posts; and the
 * sockets' when FLEET_SOCKET_TOKENS is empty), FLEET_SOCKET_TOKENS (comma-separated: socket i says
 * hello with the i-th, round robin), FLEET_POST (0|1),
 * FLEET_RATE, FLEET_SECONDS, FLEET_READY_DIR and FLEET_PROCESSES (every process marks itself ready
 * there once its sockets are subscribed; posting starts 2 s after all are).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const servers = (process.env.FLEET_SERVERS ?? '').split(',').filter(Boolean);
const count = Number(process.env.FLEET_SOCKETS ?? 100);
const token = process.env.FLEET_TOKEN ?? '';
const socketTokens = (process.env.FLEET_SOCKET_TOKENS ?? '').split(',').filter(Boolean);
if (socketTokens.length === 0) socketTokens.push(token);
const posts = process.env.FLEET_POST === '1';
const rate = Number(process.env.FLEET_RATE ?? 20);
const seconds = Number(process.env.FLEET_SECONDS ?? 15);
const readyDir = process.env.FLEET_READY_DIR ?? '';
const processes = Number(process.env.FLEET_PROCESSES ?? 1);
const channel = '/ws/status/newEvents';
const marker = Buffer.from('"event_free_text":"sent ', 'latin1');
const pubStart = Buffer.from('{"type":"pub"', 'latin1');
const pingStart = Buffer.from('{"type":"ping"', 'latin1');
const helloStart = Buffer.from('{"type":"hello"', 'latin1');

/** The machine's clock in ms with sub-ms resolution, comparable across processes. */
const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let latencies = new Float32Array(1 << 16);
let pubs = 0;
let closed = 0;
/** Per server (index in FLEET_SERVERS) and event (its send time): first and last arrival, ms. */
const arrivals = servers.map(() => new Map<number, [number, number]>());
/** Every socket's reads land here and are parsed before the next read (`onread`). */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

function record(server: number, sent: number, now: number): void {
  if (pubs === latencies.length) {
    const grown = new Float32Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[pubs++] = now - sent;
  const byEvent = arrivals[server]!;
  const seen = byEvent.get(sent);
  if (!seen) byEvent.set(sent, [now, now]);
  else seen[1] = now;
}

/** A client frame: text, final, masked (RFC 6455 section 5.3). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + 4 + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = 0x80 | n;
  else if (n < 65536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(n), 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, head);
  for (let i = 0; i < n; i++) frame[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** The number written at `at` (digits and one point), read from the bytes. */
function readNumber(buf: Buffer, at: number, end: number): number {
  let value = 0;
  let scale = 0;
  for (let i = at; i < end; i++) {
    const c = buf[i]!;
    if (c === 0x2e) scale = 1;
    else if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      if (scale) scale *= 10;
    } else break;
  }
  return scale ? value / scale : value;
}

function startsWith(buf: Buffer, at: number, prefix: Buffer): boolean {
  return buf.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

function open(i: number): Promise<net.Socket> {
  const url = new URL(servers[i % servers.length]!);
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    let upgraded = false;
    /** The start of a frame split across reads (copied: the read buffer is reused). */
    let rest: Buffer | null = null;
    const socket = net.connect({
      host: url.hostname,
      port: Number(url.port),
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (n) => {
          onData(readBuffer, n);
          return true;
        },
      },
    });
    socket.once('error', reject);
    socket.once('close', () => {
      closed++;
      reject(new Error('closed before hello'));
    });
    socket.once('connect', () =>
      socket.write(
        `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    const onFrame = (buf: Buffer, start: number, end: number, opcode: number): void => {
      if (opcode === 0x8) {
        socket.destroy();
        return;
      }
      if (startsWith(buf, start, pubStart)) {
        const now = clock();
        const at = buf.indexOf(marker, start);
        if (at >= 0 && at < end) record(i % servers.length, readNumber(buf, at + marker.length, end), now);
      } else if (startsWith(buf, start, pingStart)) socket.write(clientFrame(`{"type":"ping","id":"p${i}"}`));
      else if (startsWith(buf, start, helloStart)) resolve(socket);
      else reject(new Error(buf.toString('utf8', start, Math.min(end, start + 200))));
    };
    const onData = (chunk: Buffer, n: number): void => {
      const buf = rest ? Buffer.concat([rest, chunk.subarray(0, n)]) : chunk;
      const length = rest ? buf.length : n;
      rest = null;
      let at = 0;
      if (!upgraded) {
        const headEnd = buf.subarray(0, length).indexOf('\r\n\r\n');
        if (headEnd < 0) {
          rest = Buffer.from(buf.subarray(0, length));
          return;
        }
        if (!buf.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
          reject(new Error(buf.toString('latin1', 0, headEnd)));
          socket.destroy();
          return;
        }
        upgraded = true;
        at = headEnd + 4;
        socket.write(
          clientFrame(
            JSON.stringify({
              type: 'hello',
              id: `h${i}`,
              auth: { headers: { Authorization: `Bearer ${socketTokens[i % socketTokens.length]}` } },
              version: '2',
              subs: [channel],
            }),
          ),
        );
      }
      // Server frames: unmasked, one per nes message (the server never fragments them).
      while (length - at >= 2) {
        const opcode = buf[at]! & 0x0f;
        let len = buf[at + 1]! & 0x7f;
        let head = 2;
        if (len === 126) {
          if (length - at < 4) break;
          len = buf.readUInt16BE(at + 2);
          head = 4;
        } else if (len === 127) {
          if (length - at < 10) break;
          len = Number(buf.readBigUInt64BE(at + 2));
          head = 10;
        }
        if (length - at < head + len) break;
        onFrame(buf, at + head, at + head + len, opcode);
        at += head + len;
      }
      if (at < length) rest = Buffer.from(buf.subarray(at, length));
    };
  });
}

async function main(): Promise<void> {
  const sockets: net.Socket[] = [];
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
  const cpuStart = process.cpuUsage();
  const wallStart = clock();
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
  const cpu = process.cpuUsage(cpuStart);
  const wall = clock() - wallStart;
  for (const socket of sockets) socket.destroy();
  const samples = Buffer.from(latencies.buffer, 0, pubs * 4).toString('base64');
  process.stdout.write(
    JSON.stringify({
      sockets: sockets.length,
      pubs,
      closed: closedEarly,
      postMs,
      failedPosts: failed,
      // This process's CPU while events flowed (user + system, ms) and how long that was.
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs: wall,
      // `sent/server` → [first, last] arrival (the bench merges generators per event and server).
      arrivals: Object.fromEntries(
        arrivals.flatMap((byEvent, server) => [...byEvent].map(([sent, times]) => [`${sent}/${server}`, times])),
      ),
      samples,
    }) + '\n',
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/**
 * Video benchmark (docs/video.md#frame-grabs):
 *  1. Frame-grab latency from a recording made by ffmpeg (testsrc2, 64 s, a keyframe every 2 s),
 *     cold (ffmpeg runs) and cached (the frame cache answers), from the local MP4 and from its HLS
 *     copy, through the server's frame grabber.
 *  2. Frames for the demo dive S0492 (4,540 events) on the real server: one recording covering the
 *     whole dive (1 frame/s, 64×48, so the figure is ffmpeg's start and seek, not decoding), the
 *     lowering-wide job started over HTTP, and meanwhile the console's request (the newest events of
 *     the dive) timed every 250 ms and a person's frame grab every 2 s. The image sources are set to
 *     one no event holds, so every event of the dive gets a frame.
 *  3. The console while a proxy is made (docs/video.md#background-work): on the real server, a 720p
 *     recording (BENCH_PROXY_SECONDS long) registered and its proxy made over HTTP, and meanwhile
 *     POST /events timed every 100 ms; against the same posts with nothing running (quiet) and
 *     while the same ffmpeg runs as a plain command would (normal priority, every thread).
 * Writes bench/results/video.json and .md (a run of some parts keeps the others' figures). Not a
 * test: it asserts nothing.
 *
 * The job is measured for BENCH_JOB_SECONDS (180; 0: to its end): on a shared 2-core machine the
 * whole dive takes the better part of an hour, so by default the figure for all 4,540 events is
 * projected from the rate over that window (the result says which).
 *
 * Env: BENCH_PORT (8975), BENCH_FRAMEGRAB_CONCURRENCY (3), BENCH_GRABS (20), BENCH_JOB_SECONDS (180),
 * BENCH_PROXY_SECONDS (120), BENCH_VIDEO_PARTS (`latency,dive,proxy`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FrameGrabber } from '../apps/server/src/media/frame-grabber.js';
import { mediaSource } from '../apps/server/src/media/media-uri.js';
import { makeVideoFixture } from '../apps/server/test/video-fixture.js';
import { log, resultsDir, sleep, startBenchServer, stats, webDir, type Stats } from './support';

const port = Number(process.env.BENCH_PORT ?? 8975);
const concurrency = Number(process.env.BENCH_FRAMEGRAB_CONCURRENCY ?? 3);
const grabs = Number(process.env.BENCH_GRABS ?? 20);
const jobSeconds = Number(process.env.BENCH_JOB_SECONDS ?? 180);
const proxySeconds = Number(process.env.BENCH_PROXY_SECONDS ?? 120);
const parts = new Set((process.env.BENCH_VIDEO_PARTS ?? 'latency,dive,proxy').split(','));
const ffmpeg = 'ffmpeg';
const api = (url: string) => `${url}/sealog-server/api/v1`;

/** Logs in as the demo admin; `call` answers a request's JSON, or throws with its status and body. */
async function adminCaller(url: string) {
  const login = await fetch(`${api(url)}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method: string, p: string, body?: unknown) => {
    const send = () =>
      fetch(`${api(url)}/${p}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    // A keep-alive connection the server closed while idle (the encoding takes a while): once more.
    const res = await send().catch(() => send());
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  return { call };
}
async function grabLatency(dataDir: string): Promise<Record<string, { cold: Stats; cached: Stats }>> {
  const fx = makeVideoFixture(ffmpeg, dataDir);
  const out: Record<string, { cold: Stats; cached: Stats }> = {};
  for (const [name, uri] of [
    ['local MP4', fx.segments[0]!.uri],
    ['HLS copy', fx.hls],
  ] as const) {
    const grabber = new FrameGrabber({
      ffmpeg,
      cacheDir: path.join(dataDir, `cache-${name.replace(/\W/g, '')}`),
      cacheBytes: 64 << 20,
      concurrency: 1,
      timeoutMs: 30_000,
    });
    const source = await mediaSource(uri, dataDir);
    const offsets = Array.from({ length: grabs }, (_, i) => Math.round(((i + 0.5) * 39_000) / grabs));
    const time = async () => {
      const samples: number[] = [];
      for (const offset_ms of offsets) {
        const t0 = performance.now();
        await grabber.grab({ source, offset_ms, deinterlace: false, lane: 'interactive' });
        samples.push(performance.now() - t0);
      }
      return stats(samples);
    };
    const cold = await time();
    const cached = await time();
    out[name] = { cold, cached };
    log(`${name}: cold p50 ${cold.p50} ms, cached p50 ${cached.p50} ms`);
  }
  return out;
}

async function diveFrames(dataDir: string) {
  const web = webDir();
  mkdirSync(dataDir, { recursive: true });
  const configFile = path.join(dataDir, 'bench-config.json');
  writeFileSync(configFile, JSON.stringify({ client: { imagesAuxDataSources: ['benchNoImages'] } }));
  const server = await startBenchServer({
    port,
    web: web.dir,
    dataDir,
    env: {
      BATHYLOG_CONFIG: configFile,
      BATHYLOG_FRAMEGRAB_CONCURRENCY: String(concurrency),
      BATHYLOG_ASNAP_ENABLED: 'false',
    },
  });
  try {
    const { call } = await adminCaller(server.url);
    const lowering = (
      (await call('GET', 'lowerings?lowering_id=S0492')) as Array<{
        id: string;
        start_ts: string;
        stop_ts: string;
      }>
    )[0]!;
    const start = Date.parse(lowering.start_ts);
    const seconds = Math.ceil((Date.parse(lowering.stop_ts) - start) / 1000) + 2;
    mkdirSync(path.join(dataDir, 'video'), { recursive: true });
    log(`encoding a ${seconds} s recording of the dive`);
    execFileSync(ffmpeg, [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `testsrc2=size=64x48:rate=1:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '2'],
      path.join(dataDir, 'video/dive.mp4'),
    ]);
    await call('POST', `lowerings/${lowering.id}/recordings`, {
      camera: 'MainCam',
      start_ts: lowering.start_ts,
      copies: [{ uri: 'video/dive.mp4', role: 'master' }],
    });
    const events = (await call('GET', `events/bylowering/${lowering.id}?limit=50`)) as Array<{ id: string }>;

    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await call('GET', `events/bylowering/${lowering.id}?limit=20&sort=newest`);
      idle.push(performance.now() - t0);
    }

    const t0 = performance.now();
    const job = (await call('POST', `lowerings/${lowering.id}/framegrabs`)) as { total: number };
    log(`job started: ${job.total} events`);
    const during: number[] = [];
    const personal: number[] = [];
    let state = 'running';
    let done = 0;
    let last = { grabbed: 0, failed: 0, no_recording: 0 };
    let n = 0;
    while (state === 'running' && (jobSeconds === 0 || performance.now() - t0 < jobSeconds * 1000)) {
      const s = performance.now();
      await call('GET', `events/bylowering/${lowering.id}?limit=20&sort=newest`);
      during.push(performance.now() - s);
      if (++n % 8 === 0) {
        const g = performance.now();
        await call('POST', `events/${events[(n / 8) % events.length]!.id}/framegrab`);
        personal.push(performance.now() - g);
        const status = (await call('GET', `lowerings/${lowering.id}/framegrabs`)) as {
          state: string;
          done: number;
          grabbed: number;
          failed: number;
          no_recording: number;
        };
        state = status.state;
        done = status.done;
        last = status;
        if (n % 80 === 0) log(`${done}/${job.total}`);
      }
      await sleep(250);
    }
    const elapsed = (performance.now() - t0) / 1000;
    const finished = state !== 'running';
    const rate = done / elapsed;
    return {
      events: job.total,
      concurrency,
      // The grabber runs the job's grabs one at a time (docs/video.md#background-work).
      batchSlots: 1,
      measuredSeconds: Math.round(elapsed * 10) / 10,
      eventsDone: done,
      finished,
      totalSeconds: Math.round((finished ? elapsed : job.total / rate) * 10) / 10,
      framesPerSecond: Math.round(rate * 10) / 10,
      result: last,
      consoleIdle: stats(idle),
      consoleDuringJob: stats(during),
      personalGrabDuringJob: stats(personal),
    };
  } finally {
    server.child.kill('SIGTERM');
    await sleep(1000);
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

/** POST /events latency, quiet, while the server makes a proxy, and while a plain ffmpeg runs. */
async function proxyLoad(dataDir: string) {
  const web = webDir();
  mkdirSync(path.join(dataDir, 'video'), { recursive: true });
  log(`encoding a ${proxySeconds} s 720p recording`);
  execFileSync(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `testsrc2=size=1280x720:rate=25:duration=${proxySeconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${proxySeconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest'],
    path.join(dataDir, 'video/cam1.mp4'),
  ]);
  const server = await startBenchServer({
    port,
    web: web.dir,
    dataDir,
    env: { BATHYLOG_ASNAP_ENABLED: 'false' },
  });
  try {
    const { call } = await adminCaller(server.url);
    const lowering = (
      (await call('GET', 'lowerings?lowering_id=S0492')) as Array<{ id: string; start_ts: string }>
    )[0]!;
    const recording = (await call('POST', `lowerings/${lowering.id}/recordings`, {
      camera: 'cam1',
      start_ts: lowering.start_ts,
      copies: [{ uri: 'video/cam1.mp4', role: 'master' }],
    })) as { id: string };
    // One post every 100 ms until `until` says stop (at least `min` posts).
    const posts = async (until: (n: number) => Promise<boolean>, min: number) => {
      const samples: number[] = [];
      const when: number[] = [];
      const start = performance.now();
      for (let n = 0; n < min || !(await until(n)); n++) {
        const t0 = performance.now();
        await call('POST', 'events', { event_value: 'BENCH', event_author: 'bench' });
        samples.push(performance.now() - t0);
        when.push((t0 - start) / 1000);
        await sleep(100);
      }
      // The three slowest, with the second of the phase they came at (a stall at the start or the
      // end of an encoding tells the hand-over from the encoding itself).
      const slowest = samples
        .map((ms, i) => ({ ms: Math.round(ms), atSecond: Math.round(when[i]! * 10) / 10 }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3);
      // The machine's load over the phase: on a shared box other work moves these figures.
      return { ...stats(samples), slowest, loadAverage1m: Math.round(os.loadavg()[0]! * 10) / 10 };
    };
    for (let i = 0; i < 20; i++) await call('POST', 'events', { event_value: 'WARMUP' });
    const quiet = await posts(async () => true, 200);
    log(`quiet: p50 ${quiet.p50} ms, p95 ${quiet.p95} ms`);

    const t0 = performance.now();
    await call('POST', `recordings/${recording.id}/proxy`);
    let made = false;
    const during = await posts(async (n) => {
      if (n % 10 !== 0) return false;
      const r = (await call('GET', `recordings/${recording.id}`)) as { copies: Array<{ role: string }> };
      made = r.copies.some((c) => c.role === 'proxy');
      return made;
    }, 1);
    const proxyMadeSeconds = Math.round((performance.now() - t0) / 100) / 10;
    log(`during the proxy (${proxyMadeSeconds} s): p50 ${during.p50} ms, p95 ${during.p95} ms`);

    // The same encoding as a plain command runs it: normal priority, as many threads as it likes.
    const t1 = performance.now();
    const plain = spawn(
      ffmpeg,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', path.join(dataDir, 'video/cam1.mp4')],
        ...['-vf', "scale=-2:'min(480,ih)'", '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28'],
        ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-y'],
        path.join(dataDir, 'plain.mp4'),
      ],
      { stdio: 'ignore' },
    );
    let plainDone = false;
    plain.on('close', () => (plainDone = true));
    const beside = await posts(async () => plainDone, 1);
    const plainSeconds = Math.round((performance.now() - t1) / 100) / 10;
    log(`beside a plain ffmpeg (${plainSeconds} s): p50 ${beside.p50} ms, p95 ${beside.p95} ms`);
    return {
      recording: `1280x720, 25 frames/s, ${proxySeconds} s, H.264 + AAC`,
      proxyMadeSeconds,
      plainSeconds,
      postEventsQuiet: quiet,
      postEventsDuringProxy: during,
      postEventsBesidePlainFfmpeg: beside,
    };
  } finally {
    server.child.kill('SIGTERM');
    await sleep(1000);
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
  }
}

type Dive = Awaited<ReturnType<typeof diveFrames>>;
type Proxy = Awaited<ReturnType<typeof proxyLoad>>;
interface VideoResults {
  when: string;
  cpus: number;
  latency?: Record<string, { cold: Stats; cached: Stats }>;
  dive?: Dive;
  proxy?: Proxy;
  /** When each part last ran (a run of some parts keeps the others' figures and times). */
  partsWhen?: Record<string, string>;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-video-bench-'));
try {
  const file = path.join(resultsDir, 'video.json');
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as VideoResults) : null;
  const now = new Date().toISOString();
  const partsWhen: Record<string, string> = {
    ...(before ? { latency: before.when, dive: before.when } : {}),
    ...before?.partsWhen,
  };
  for (const part of ['latency', 'dive', 'proxy']) if (parts.has(part)) partsWhen[part] = now;
  const result: VideoResults = { ...before, when: now, cpus: os.cpus().length, partsWhen };
  if (parts.has('latency')) result.latency = await grabLatency(dir);
  if (parts.has('dive')) result.dive = await diveFrames(path.join(dir, 'server'));
  if (parts.has('proxy')) result.proxy = await proxyLoad(path.join(dir, 'proxy'));
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  const row = (s: Stats) => `${s.p50} | ${s.p95} | ${s.max}`;
  const { latency, dive, proxy } = result;
  const md = [
    '# Video: frame grabs and proxies',
    '',
    `On ${result.cpus} CPUs (bench/video.bench.ts); each part says when it last ran.`,
    '',
    ...(latency
      ? [
          '## Frame-grab latency (ms), 320×240 H.264, keyframe every 2 s',
          '',
          `Run ${partsWhen.latency}.`,
          '',
          '| source | cold p50 | cold p95 | cold max | cached p50 | cached p95 | cached max |',
          '|---|---|---|---|---|---|---|',
          ...Object.entries(latency).map(([k, v]) => `| ${k} | ${row(v.cold)} | ${row(v.cached)} |`),
          '',
        ]
      : []),
    ...(dive
      ? [
          `## Frames for S0492 (${dive.events} events)`,
          '',
          `Run ${partsWhen.dive}.`,
          '',
          `- ${dive.concurrency} ffmpeg at most, ${dive.batchSlots} of them for the job: ` +
            `${dive.finished ? `${dive.totalSeconds} s in all` : `${dive.eventsDone} events in ${dive.measuredSeconds} s, so about ${dive.totalSeconds} s for all ${dive.events} (projected)`}, ` +
            `${dive.framesPerSecond} frames/s (${dive.result.grabbed} grabbed, ${dive.result.failed} failed, ` +
            `${dive.result.no_recording} without a recording).`,
          '',
          '| request (ms) | p50 | p95 | max |',
          '|---|---|---|---|',
          `| console list, idle | ${row(dive.consoleIdle)} |`,
          `| console list, during the job | ${row(dive.consoleDuringJob)} |`,
          `| a person's frame grab, during the job | ${row(dive.personalGrabDuringJob)} |`,
          '',
        ]
      : []),
    ...(proxy
      ? [
          '## POST /events while a proxy is made',
          '',
          `Run ${partsWhen.proxy}.`,
          '',
          `A ${proxy.recording} recording; its proxy (480 lines, H.264 veryfast, one thread, nice 19 and ` +
            `ionice idle where there) took ${proxy.proxyMadeSeconds} s; the same encoding as a plain ffmpeg ` +
            `(normal priority, every thread) ${proxy.plainSeconds} s. One POST /events every 100 ms:`,
          '',
          '| POST /events (ms) | p50 | p95 | max | load average at its end |',
          '|---|---|---|---|---|',
          `| quiet | ${row(proxy.postEventsQuiet)} | ${proxy.postEventsQuiet.loadAverage1m ?? '–'} |`,
          `| while the server makes the proxy | ${row(proxy.postEventsDuringProxy)} | ${proxy.postEventsDuringProxy.loadAverage1m ?? '–'} |`,
          `| beside a plain ffmpeg (for comparison) | ${row(proxy.postEventsBesidePlainFfmpeg)} | ${proxy.postEventsBesidePlainFfmpeg.loadAverage1m ?? '–'} |`,
          '',
          'The slowest posts (ms at second s of the phase): ' +
            [
              ['quiet', proxy.postEventsQuiet],
              ['proxy', proxy.postEventsDuringProxy],
              ['plain ffmpeg', proxy.postEventsBesidePlainFfmpeg],
            ]
              .map(
                ([name, s]) =>
                  `${name as string} ${(s as { slowest?: Array<{ ms: number; atSecond: number }> }).slowest?.map((x) => `${x.ms} at ${x.atSecond}`).join(', ') ?? '–'}`,
              )
              .join('; ') +
            '.',
          '',
        ]
      : []),
  ].join('\n');
  writeFileSync(path.join(resultsDir, 'video.md'), md);
  log('wrote bench/results/video.json and video.md');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

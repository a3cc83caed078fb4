/**
 * File store benchmark (docs/storage.md#files): the same file traffic through the real server on
 * the local folder and on an S3 bucket (s3rver from npm on the loopback, which keeps its objects
 * on the same disk: the figures show the store's overhead, not a real bucket's network). Per
 * store: a 64 MB upload (multipart on S3) and its download, 1 MB ranged reads at random offsets,
 * a frame grab's first thumbnail (made, cached in the store) and later ones (read from the cache),
 * and small image reads; the server's RSS after the upload. Production mode, SQLite. Writes
 * bench/results/file-store.json and .md. Not a test: it asserts nothing.
 *
 * Env: BENCH_RUNS (30), BENCH_PORT (8964).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { log, resultsDir, startBenchServer, stats, type Stats } from './support';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const port = Number(process.env.BENCH_PORT ?? 8964);
const bigBytes = Number(process.env.BENCH_FILE_MB ?? 64) * 1024 * 1024;

interface StoreResult {
  store: string;
  uploadMBps: number;
  uploadSeconds: number;
  downloadMBps: number;
  rssAfterUploadMB: number;
  range1MB: Stats;
  thumbnailFirst: Stats;
  thumbnailCached: Stats;
  smallImage: Stats;
}

function multipartBody(name: string, data: Buffer): { body: Buffer; type: string } {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A GET with node:http (undici's fetch stalls on large bodies here), the whole body read. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function rssMB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function measure(store: 'local' | 's3', env: Record<string, string>): Promise<StoreResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `bathylog-bench-files-${store}-`));
  const empty = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-noweb-'));
  const { url, child } = await startBenchServer({
    port,
    web: empty,
    dataDir,
    env: { BATHYLOG_MODE: 'production', BATHYLOG_UPLOAD_LIMIT_MB: '100', ...env },
  });
  try {
    const files = `${url}/sealog-server/files`;
    const api = `${url}/sealog-server/api/v1`;
    const { token } = (await (
      await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'demo' }),
      })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const cruise = (await (
      await fetch(`${api}/cruises`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          cruise_id: 'BENCH1',
          start_ts: '2023-03-03T00:00:00.000Z',
          stop_ts: '2023-04-11T23:59:59.000Z',
          cruise_location: 'bench',
          cruise_tags: [],
          cruise_hidden: false,
          cruise_additional_meta: { cruise_name: 'bench', cruise_vessel: 'bench', cruise_pi: 'bench' },
        }),
      })
    ).json()) as { insertedId: string };

    log(`${store}: server up, uploading ${bigBytes / 1024 / 1024} MB`);
    const big = randomBytes(bigBytes);
    const upload = multipartBody('sidescan.xtf', big);
    const t0 = performance.now();
    // node:http rather than fetch: undici stalls on a 64 MB request body on Node 20.
    const upStatus = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${files}/cruises/${cruise.insertedId}`,
        {
          method: 'POST',
          headers: { ...headers, 'content-type': upload.type, 'content-length': upload.body.length },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(upload.body);
    });
    if (upStatus !== 201) throw new Error(`upload → ${upStatus}`);
    const uploadSeconds = (performance.now() - t0) / 1000;
    const rssAfterUploadMB = rssMB(child.pid!);
    const fileUrl = `${files}/cruises/${cruise.insertedId}/sidescan.xtf`;
    const t1 = performance.now();
    const whole = (await get(fileUrl, headers)).body;
    const downloadSeconds = (performance.now() - t1) / 1000;
    if (!whole.equals(big)) throw new Error('the download differs from the upload');

    log(`${store}: uploaded in ${uploadSeconds.toFixed(2)} s, downloaded in ${downloadSeconds.toFixed(2)} s`);
    const ranges: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = Math.floor(Math.random() * (bigBytes - 1024 * 1024));
      const t = performance.now();
      const res = await get(fileUrl, { ...headers, range: `bytes=${start}-${start + 1024 * 1024 - 1}` });
      if (res.status !== 206) throw new Error(`range → ${res.status}`);
      ranges.push(performance.now() - t);
    }

    // Frame grabs as an inserter writes them: put through the store by attaching to events is
    // the API's only write path for images, so attachments stand in for them here.
    const picture = await sharp({
      create: { width: 1920, height: 1080, channels: 3, background: { r: 20, g: 90, b: 140 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    log(`${store}: ranged reads done`);
    const first: number[] = [];
    const cached: number[] = [];
    const small: number[] = [];
    for (let i = 0; i < Math.min(runs, 15); i++) {
      const event = (await (
        await fetch(`${api}/events`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ event_value: 'PHOTO' }),
        })
      ).json()) as { insertedId: string };
      const part = multipartBody('grab.jpg', picture);
      const stored = await (
        await fetch(`${files}/images/filepond/process/${event.insertedId}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': part.type },
          body: part.body,
        })
      ).text();
      const timeGet = async (u: string) => {
        const t = performance.now();
        const res = await get(u, headers);
        if (res.status !== 200) throw new Error(`${u} → ${res.status}`);
        return performance.now() - t;
      };
      first.push(await timeGet(`${files}/images/${stored}?w=320`));
      cached.push(await timeGet(`${files}/images/${stored}?w=320`));
      small.push(await timeGet(`${files}/images/${stored}`));
    }
    return {
      store,
      uploadMBps: Math.round((bigBytes / 1024 / 1024 / uploadSeconds) * 10) / 10,
      uploadSeconds: Math.round(uploadSeconds * 100) / 100,
      downloadMBps: Math.round((bigBytes / 1024 / 1024 / downloadSeconds) * 10) / 10,
      rssAfterUploadMB,
      range1MB: stats(ranges),
      thumbnailFirst: stats(first),
      thumbnailCached: stats(cached),
      smallImage: stats(small),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  }
}

async function main() {
  const s3Dir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-s3-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: 'bench', configs: [] }],
  });
  const { port: s3Port } = await s3.run();
  try {
    const results = [
      await measure('local', {}),
      await measure('s3', {
        BATHYLOG_STORAGE: 's3',
        BATHYLOG_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
        BATHYLOG_S3_BUCKET: 'bench',
        BATHYLOG_S3_PATH_STYLE: 'true',
        BATHYLOG_S3_ACCESS_KEY_ID: 'S3RVER',
        BATHYLOG_S3_SECRET_ACCESS_KEY: 'S3RVER',
      }),
    ];
    const result = { date: new Date().toISOString(), runs, bigFileMB: bigBytes / 1024 / 1024, results };
    writeFileSync(path.join(resultsDir, 'file-store.json'), `${JSON.stringify(result, null, 2)}\n`);
    const row = (r: StoreResult) =>
      `| ${r.store} | ${r.uploadMBps} | ${r.downloadMBps} | ${r.rssAfterUploadMB} | ${r.range1MB.p50} / ${r.range1MB.p95} | ` +
      `${r.thumbnailFirst.p50} | ${r.thumbnailCached.p50} | ${r.smallImage.p50} |`;
    const md = [
      '# File store: local folder and S3 bucket',
      '',
      `${result.date}: the server in production mode (SQLite) on the loopback; the bucket is s3rver (npm) on the`,
      'same machine and disk, so the S3 figures are the cost of the store and the protocol, not of a network.',
      `A ${result.bigFileMB} MB upload (multipart on S3, 8 MB parts) and its download; ${runs} ranged reads of 1 MB;`,
      'thumbnails (320 px) of a 1920×1080 JPEG attachment, first (made and cached) and later (from the cache).',
      '',
      '| store | upload MB/s | download MB/s | RSS after upload MB | range 1 MB p50/p95 ms | thumbnail first p50 ms | thumbnail cached p50 ms | image p50 ms |',
      '|---|---|---|---|---|---|---|---|',
      ...results.map(row),
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'file-store.md'), md);
    log(md);
  } finally {
    await s3.close();
    rmSync(s3Dir, { recursive: true, force: true });
  }
}

await main();

/**
 * Publication benchmark (docs/publication.md): the Darwin Core Archive of the demo dive S0492
 * (4,540 events, 447 observations, navigation on every event) and of its cruise, on the real
 * server, demo mode, SQLite. The taxonomy is the real WoRMS fixture of the tests, and the demo's
 * sponge and coral morphotypes are mapped to taxa as a vessel would map them, so the archive holds
 * occurrences and the report lists the rest as observations without a taxon. Times
 * `GET publication/dwca_report/bylowering/{id}` (build + validate), `GET publication/dwca/bylowering/{id}`
 * (build + validate + zip) and the cruise's archive, over HTTP on the loopback, one request at a
 * time, after one warm-up read. Writes bench/results/publication.json and .md. Asserts nothing.
 *
 * Env: BENCH_RUNS (10), BENCH_PORT (8963).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log, repoRoot, resultsDir, startBenchServer, stats, webDir } from './support';

const runs = Number(process.env.BENCH_RUNS ?? 10);
const port = Number(process.env.BENCH_PORT ?? 8963);
const loweringId = '6410e4e06594c9977675e47a';

/** The demo's morphotype values mapped to real taxa of the fixture (Porifera 558, Cnidaria 1267). */
const legacy = [
  ['sponge_type', 'Other', 558],
  ['sponge_type', 'Upright (Ampitheatre/Bugal/Vase)', 558],
  ['sponge_type', 'Stalked', 558],
  ['coral_group', 'Hexacorallia', 1267],
  ['coral_group', 'Octocorallia', 1267],
  ['coral_group', 'Unknown', 1267],
] as const;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bathylog-bench-publication-'));
  const web = webDir();
  const { url, child } = await startBenchServer({
    port,
    web: web.dir,
    dataDir,
    env: { BATHYLOG_ASNAP_ENABLED: 'false' },
  });
  try {
    const apiUrl = `${url}/sealog-server/api/v1`;
    const login = (await (
      await fetch(`${apiUrl}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: 'demo' }),
      })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${login.token}` };
    const send = async (method: string, p: string, body: string, type = 'application/json') => {
      const res = await fetch(`${apiUrl}/${p}`, { method, headers: { ...headers, 'content-type': type }, body });
      if (!res.ok) throw new Error(`${method} ${p} → ${res.status} ${await res.text()}`);
    };
    const taxa = readFileSync(path.join(repoRoot, 'apps/server/test/fixtures/worms/taxon.txt'), 'utf8');
    await send('POST', 'taxa/imports?kind=dwc-taxon&source=WoRMS%20fixture', taxa, 'text/tab-separated-values');
    for (const [scope, value, aphiaId] of legacy)
      await send(
        'PUT',
        'taxa/legacy_mappings',
        JSON.stringify({ scope, value, aphia_id: aphiaId, qualifier: 'indet.' }),
      );
    const cruises = (await (await fetch(`${apiUrl}/cruises`, { headers })).json()) as Array<{ id: string }>;

    const time = async (p: string) => {
      const samples: number[] = [];
      let bytes = 0;
      let body = '';
      for (let i = 0; i < runs + 1; i++) {
        const t0 = performance.now();
        const res = await fetch(`${apiUrl}/${p}`, { headers });
        const buf = Buffer.from(await res.arrayBuffer());
        if (!res.ok) throw new Error(`${p} → ${res.status} ${buf.toString()}`);
        if (i >= 1) samples.push(performance.now() - t0);
        bytes = buf.length;
        body = buf.toString();
      }
      return { ...stats(samples), bytes, body };
    };
    const report = await time(`publication/dwca_report/bylowering/${loweringId}`);
    const counts = (JSON.parse(report.body) as { counts: Record<string, number>; ok: boolean }).counts;
    const zip = await time(`publication/dwca/bylowering/${loweringId}`);
    const cruise = await time(`publication/dwca/bycruise/${cruises[0]!.id}`);
    const strip = ({ body: _body, ...s }: typeof report) => s;
    const result = {
      date: new Date().toISOString(),
      dive: 'S0492 (4,540 events, 447 observations, nav on every event)',
      runs,
      counts,
      report: strip(report),
      zip: strip(zip),
      cruiseZip: strip(cruise),
    };
    writeFileSync(path.join(resultsDir, 'publication.json'), `${JSON.stringify(result, null, 2)}\n`);
    const row = (name: string, s: ReturnType<typeof strip>) =>
      `| ${name} | ${s.p50} | ${s.p95} | ${s.max} | ${s.bytes.toLocaleString('en')} |`;
    const md = [
      '# Publication (Darwin Core Archive)',
      '',
      `${result.date}: ${result.dive}, SQLite, demo server on the loopback, ${runs} reads each after one warm-up read.`,
      `The archive: ${counts.events} events, ${counts.occurrences} occurrences, ${counts.measurements} measurements; ` +
        `${counts.unmapped} observations without a taxon in the report.`,
      '',
      '| read | p50 ms | p95 ms | max ms | bytes |',
      '|---|---|---|---|---|',
      row('GET publication/dwca_report/bylowering/{id}', result.report),
      row('GET publication/dwca/bylowering/{id}', result.zip),
      row('GET publication/dwca/bycruise/{id} (one dive)', result.cruiseZip),
      '',
      "Every read builds the archive from the database, validates it (both XML schemas with Debian's xmllint, the",
      'structural checks) and, for the zip, compresses it: nothing is cached, so a report always describes the',
      'data as it stands.',
      '',
    ].join('\n');
    writeFileSync(path.join(resultsDir, 'publication.md'), md);
    log(
      `report p50 ${result.report.p50} ms, zip p50 ${result.zip.p50} ms; results in bench/results/publication.{json,md}`,
    );
  } finally {
    child.kill('SIGTERM');
    if (web.temp) rmSync(web.dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

import { writeFile } from 'node:fs/promises';
import { isObjectId, type PublicationReport } from '@bathylog/shared';
import { apiPrefix } from '../app.js';
import { CliError, UsageError, err, out, type GlobalOptions, type Values } from './cli-args.js';
import { adminToken, openCliApp } from './cli-context.js';

/**
 * `bathylog dwca <lowering|cruise> <id or name>`: the Darwin Core Archive and its validator report,
 * through the same routes as the client (docs/publication.md#from-the-command-line).
 */
export async function dwca(global: GlobalOptions, kindText: string, idOrName: string, values: Values): Promise<void> {
  if (kindText !== 'lowering' && kindText !== 'cruise') throw new UsageError('The kind is lowering or cruise');
  const kind = kindText;
  const cli = await openCliApp(global);
  try {
    const authorization = await adminToken(cli.ctx);
    const get = (url: string) =>
      cli.app.inject({ method: 'GET', url: `${apiPrefix}${url}`, headers: { authorization } });
    const message = (res: { body: string }) => {
      try {
        return (JSON.parse(res.body) as { message: string }).message;
      } catch {
        return res.body;
      }
    };
    let id = idOrName;
    if (!isObjectId(idOrName)) {
      const found = await get(`/${kind}s?${kind}_id=${encodeURIComponent(idOrName)}`);
      const list = found.statusCode === 200 ? (found.json() as Array<{ id: string }>) : [];
      if (list.length === 0) throw new CliError(`No ${kind} named ${idOrName}`);
      id = list[0]!.id;
    }
    err(`Building and validating the archive of ${kind} ${idOrName}…`);
    const reportRes = await get(`/publication/dwca_report/by${kind}/${id}`);
    if (reportRes.statusCode !== 200)
      throw new CliError(`Export failed (${reportRes.statusCode}): ${message(reportRes)}`);
    const report = reportRes.json() as PublicationReport;
    const { counts } = report;
    err(
      `${counts.events} events, ${counts.occurrences} occurrences, ${counts.measurements} measurements; ` +
        `${counts.unmapped} observations without a taxon; ${report.errors.length} errors, ${report.warnings.length} warnings`,
    );
    for (const e of report.errors) err(`  error: ${e.file}${e.line ? `:${e.line}` : ''} ${e.message}`);
    for (const w of report.warnings) err(`  warning: ${w.file}${w.line ? `:${w.line}` : ''} ${w.message}`);
    for (const u of report.unmapped) err(`  no taxon: ${u.ts} ${u.event_value} ${u.verbatim}`);
    if (typeof values.report === 'string') await writeFile(values.report, JSON.stringify(report, null, 2));
    if (!report.ok && !values.force)
      throw new CliError('The archive does not validate: nothing written (--force writes it anyway)');
    const zip = await get(`/publication/dwca/by${kind}/${id}`);
    if (zip.statusCode !== 200) throw new CliError(`Export failed (${zip.statusCode}): ${message(zip)}`);
    const target = typeof values.out === 'string' ? values.out : report.file_name;
    await writeFile(target, zip.rawPayload);
    out(target);
    err(`Wrote ${target} (${zip.rawPayload.length} bytes, sha256 ${report.sha256}).`);
  } finally {
    await cli.close();
  }
}

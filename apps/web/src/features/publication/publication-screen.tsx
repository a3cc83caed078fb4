import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Card, ProgressBar, Table } from 'react-bootstrap';
import { Link, useParams } from 'wouter';
import { capabilityRoles, type EventListFormat, type PublicationReport, type ValidationIssue } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { useAuth } from '../../lib/auth';
import { saveBlob } from '../../lib/download';
import {
  getDwcaZip,
  getEventList,
  usePublicationRecord,
  usePublicationReport,
  type PublicationKind,
} from './publication-api';

/** Seconds since `running` turned true, ticking while it stays true (the progress line). */
function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    setSeconds(0);
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return seconds;
}

function IssueTable({
  caption,
  issues,
  variant,
}: {
  caption: string;
  issues: ValidationIssue[];
  variant: 'danger' | 'warning';
}) {
  if (issues.length === 0) return null;
  return (
    <Table size="sm" bordered responsive className="mb-3">
      <caption className="caption-top">
        <Badge bg={variant} text={variant === 'warning' ? 'dark' : undefined} className="me-2">
          {issues.length}
        </Badge>
        {caption}
      </caption>
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Line</th>
          <th scope="col">Field</th>
          <th scope="col">Finding</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((issue, i) => (
          <tr key={i}>
            <td>{issue.file}</td>
            <td>{issue.line ?? ''}</td>
            <td>{issue.field ?? ''}</td>
            <td>{issue.message}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function ReportView({ report }: { report: PublicationReport }) {
  const c = report.counts;
  return (
    <div data-testid="publication-report">
      {report.ok ? (
        <Alert variant="success" role="status">
          <strong>The archive validates.</strong> {c.events} events, {c.occurrences} occurrences, {c.measurements}{' '}
          measurements{report.warnings.length > 0 ? `; ${report.warnings.length} warnings to read` : ''}.
        </Alert>
      ) : (
        <Alert variant="danger" role="alert">
          <strong>The archive does not validate:</strong> {report.errors.length} errors. Fix them before uploading.
        </Alert>
      )}
      <dl className="row small mb-3">
        <dt className="col-sm-3">Archive</dt>
        <dd className="col-sm-9">
          {report.file_name} ({(report.bytes / 1024).toFixed(1)} kB)
        </dd>
        <dt className="col-sm-3">SHA-256</dt>
        <dd className="col-sm-9 text-break font-monospace">{report.sha256}</dd>
        <dt className="col-sm-3">Observations</dt>
        <dd className="col-sm-9">
          {c.observations} with a taxon, {c.unmapped} without
        </dd>
      </dl>
      <IssueTable caption="Errors" issues={report.errors} variant="danger" />
      <IssueTable caption="Warnings" issues={report.warnings} variant="warning" />
      {report.unmapped.length > 0 && (
        <Table size="sm" bordered responsive className="mb-3" data-testid="unmapped-observations">
          <caption className="caption-top">
            <Badge bg="secondary" className="me-2">
              {report.unmapped.length}
            </Badge>
            Observations without a taxon (not in the archive: map their values to taxa)
          </caption>
          <thead>
            <tr>
              <th scope="col">Time (UTC)</th>
              <th scope="col">Event</th>
              <th scope="col">As logged</th>
            </tr>
          </thead>
          <tbody>
            {report.unmapped.map((u) => (
              <tr key={u.event_id}>
                <td className="text-nowrap">{u.ts.replace('T', ' ').replace(/\.\d+Z$/, '')}</td>
                <td>{u.event_value}</td>
                <td>{u.verbatim}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

/**
 * Publish a dive or a cruise (docs/publication.md#in-the-client): the validator's report on its Darwin
 * Core Archive first, then the download; for a cruise, the archives' event lists too.
 */
export function PublicationScreen() {
  const params = useParams();
  const kind: PublicationKind = params.kind === 'cruise' ? 'cruise' : 'lowering';
  const id = params.id ?? '';
  const auth = useAuth();
  const record = usePublicationRecord(kind, id);
  const [started, setStarted] = useState(false);
  const report = usePublicationReport(kind, id, started);
  const elapsed = useElapsed(report.isFetching);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const noun = kind === 'cruise' ? 'Cruise' : 'Dive';
  const name = record.data?.humanId ?? '';

  async function download(what: string, fetchBlob: () => Promise<Blob>, fileName: string) {
    setDownloading(what);
    setDownloadError(null);
    try {
      saveBlob(await fetchBlob(), fileName);
    } catch (err) {
      setDownloadError(errorMessage(err));
    } finally {
      setDownloading(null);
    }
  }

  const listFile = (format: EventListFormat) => `${name || id}_${format}_events.${format === 'r2r' ? 'csv' : 'tab'}`;

  return (
    <div className="container-fluid py-3" style={{ maxWidth: 1100 }}>
      <h1 className="h4">
        Publish {noun} {name}
      </h1>
      <p className="text-secondary small">
        A Darwin Core Archive for OBIS and GBIF: the {kind === 'cruise' ? "cruise's dives" : 'dive'} as events, each
        observation with its taxon, position and sensor values. The validator checks it before anyone uploads.
      </p>
      {auth.hasRole(...capabilityRoles.adminOnly) && (
        <p className="small">
          <Link to="/publication_settings">Publication settings</Link>
        </p>
      )}
      <ErrorAlert message={record.error ? errorMessage(record.error) : null} />
      <Card className="mb-3">
        <Card.Header>Darwin Core Archive</Card.Header>
        <Card.Body>
          {!started && (
            <Button onClick={() => setStarted(true)} disabled={!id}>
              Build and validate
            </Button>
          )}
          {report.isFetching && (
            <div role="status" aria-live="polite" className="mb-3">
              <div className="mb-1">Building and validating the archive… {elapsed} s</div>
              <ProgressBar animated now={100} aria-label="Building the archive" />
            </div>
          )}
          <ErrorAlert message={report.error ? errorMessage(report.error) : null} />
          {report.data && !report.isFetching && (
            <>
              <ReportView report={report.data} />
              <div className="d-flex gap-2 flex-wrap">
                <Button
                  variant={report.data.ok ? 'primary' : 'outline-danger'}
                  disabled={downloading !== null}
                  onClick={() => void download('zip', () => getDwcaZip(kind, id), report.data.file_name)}
                >
                  {downloading === 'zip'
                    ? 'Downloading…'
                    : report.data.ok
                      ? 'Download archive'
                      : 'Download archive anyway'}
                </Button>
                <Button variant="outline-secondary" onClick={() => void report.refetch()}>
                  Check again
                </Button>
              </div>
            </>
          )}
          <ErrorAlert message={downloadError} className="mt-3" />
        </Card.Body>
      </Card>
      {kind === 'cruise' && (
        <Card className="mb-3">
          <Card.Header>Event lists for the national archives</Card.Header>
          <Card.Body>
            <p className="small text-secondary">
              From the events whose template the publication settings map to an instrument and action.
            </p>
            <div className="d-flex gap-2 flex-wrap">
              <Button
                variant="outline-primary"
                disabled={downloading !== null}
                onClick={() => void download('r2r', () => getEventList(id, 'r2r'), listFile('r2r'))}
              >
                {downloading === 'r2r' ? 'Downloading…' : 'R2R event log (CSV)'}
              </Button>
              <Button
                variant="outline-primary"
                disabled={downloading !== null}
                onClick={() => void download('pangaea', () => getEventList(id, 'pangaea'), listFile('pangaea'))}
              >
                {downloading === 'pangaea' ? 'Downloading…' : 'PANGAEA event list (tab)'}
              </Button>
            </div>
          </Card.Body>
        </Card>
      )}
    </div>
  );
}

import { useState } from 'react';
import { Button, Card, Form, ProgressBar, Table } from 'react-bootstrap';
import type { AuxBackfillResult } from '@bathylog/shared';
import { backfillAuxData } from '../../api/aux-managers';
import { errorMessage } from '../../api/client';
import { useLowerings } from '../../api/records';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { formatUtc } from '../../lib/format';
import { useEntityNames } from '../../lib/settings';

/** Events one run request carries: the bar moves after each. */
const chunkSize = 100;
/** Rows the dry-run table shows (the totals count them all). */
const shownRows = 200;

function Totals({ totals }: { totals: Record<string, number> }) {
  const entries = Object.entries(totals);
  if (entries.length === 0) return <>nothing to do</>;
  return <>{entries.map(([k, n]) => `${k.replace('_', ' ')} ${n.toLocaleString('en-US')}`).join(', ')}</>;
}

/**
 * Backfill a dive (docs/aux-managers.md#backfill): a dry run first lists per event and manager what a run
 * would do; the run then sends the events in chunks, with a progress bar. A second run writes nothing new.
 */
export function BackfillCard() {
  const names = useEntityNames();
  const lowerings = useLowerings();
  const [lowering, setLowering] = useState('');
  const [dry, setDry] = useState<AuxBackfillResult | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [totals, setTotals] = useState<Record<string, number> | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const dryRun = async () => {
    setError('');
    setTotals(null);
    setBusy(true);
    try {
      setDry(await backfillAuxData({ lowering_id: lowering, dry_run: true }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const run = async () => {
    if (!dry) return;
    setError('');
    setBusy(true);
    const ids = [...new Set(dry.rows.filter((r) => r.outcome === 'written').map((r) => r.event_id))];
    const sum: Record<string, number> = {};
    setProgress({ done: 0, total: ids.length });
    try {
      for (let i = 0; i < ids.length; i += chunkSize) {
        const res = await backfillAuxData({ event_ids: ids.slice(i, i + chunkSize), dry_run: false });
        for (const [k, n] of Object.entries(res.totals)) sum[k] = (sum[k] ?? 0) + n;
        setProgress({ done: Math.min(i + chunkSize, ids.length), total: ids.length });
      }
      setTotals(sum);
      setDry(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const toWrite = dry ? new Set(dry.rows.filter((r) => r.outcome === 'written').map((r) => r.event_id)).size : 0;
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0" id="aux-backfill-title">
        Backfill
      </Card.Header>
      <Card.Body>
        <ErrorAlert message={error} onClose={() => setError('')} />
        {totals && (
          <SuccessAlert
            message={`Backfill done: ${
              Object.entries(totals)
                .map(([k, n]) => `${k.replace('_', ' ')} ${n}`)
                .join(', ') || 'nothing written'
            }.`}
          />
        )}
        <Form
          className="d-flex flex-wrap gap-2 align-items-end mb-2"
          onSubmit={(e) => {
            e.preventDefault();
            void dryRun();
          }}
        >
          <Form.Group controlId="aux-backfill-lowering">
            <Form.Label>{names.Lowering}</Form.Label>
            <Form.Select value={lowering} onChange={(e) => setLowering(e.target.value)} required>
              <option value="">Choose a {names.lowering}…</option>
              {(lowerings.data ?? []).map((l) => (
                <option key={l.id} value={l.id}>
                  {l.lowering_id}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Button type="submit" size="sm" variant="primary" disabled={busy || !lowering}>
            Dry Run
          </Button>
          <Button size="sm" variant="warning" disabled={busy || !dry || toWrite === 0} onClick={() => void run()}>
            Run Backfill
          </Button>
        </Form>
        {progress && (busy || totals) && (
          <ProgressBar
            now={progress.total ? (progress.done / progress.total) * 100 : 100}
            label={`${progress.done}/${progress.total}`}
            aria-label="Backfill progress"
            className="mb-2"
            data-testid="aux-backfill-progress"
          />
        )}
        {dry && (
          <>
            <p className="small mb-1" data-testid="aux-backfill-summary">
              Dry run: {dry.events.toLocaleString('en-US')} events; <Totals totals={dry.totals} />. A run writes{' '}
              {toWrite.toLocaleString('en-US')} events.
            </p>
            <Table responsive size="sm" className="small mb-0" aria-labelledby="aux-backfill-title">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Manager</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {dry.rows.slice(0, shownRows).map((r, i) => (
                  <tr key={`${r.event_id}-${r.manager}-${i}`}>
                    <td className="text-nowrap">{formatUtc(r.ts)}</td>
                    <td>{r.event_value}</td>
                    <td>{r.manager}</td>
                    <td>
                      {r.outcome.replace('_', ' ')}
                      {r.message ? ` (${r.message})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
      </Card.Body>
    </Card>
  );
}

import { useState, type FormEvent } from 'react';
import { Button, Card, Col, Form, Row, Table } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { auditRecordTypes, capabilityRoles, type AuditEntry } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { DateTimeInput } from '../../components/date-time-input';
import { IconButton } from '../../components/icon-button';
import { Pagination } from '../../components/pagination';
import { RoleGate } from '../../components/role-gate';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { saveBlob } from '../../lib/download';
import { formatUtc } from '../../lib/format';
import { useLoggedReadError } from '../../lib/read-errors';
import { auditKeys, getAuditCsv, restoreFromAudit, useAuditPage } from './api/audit';
import {
  auditCsvFileName,
  auditFilterError,
  auditRecordLabels,
  changedFields,
  emptyAuditFilter,
  isRestorable,
  recordName,
  type AuditFilter,
  type AuditRecordType,
} from './lib/audit-filter';
import { TableHead } from '../../components/table-head';

const pageSize = 25;

/** The filter card: user or device key, record type and id, UTC time range. */
function AuditFilterForm({ applied, onApply }: { applied: AuditFilter; onApply: (f: AuditFilter) => void }) {
  const [draft, setDraft] = useState<AuditFilter>(applied);
  const [error, setError] = useState('');
  const set = (patch: Partial<AuditFilter>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = auditFilterError(draft);
    setError(problem ?? '');
    if (!problem) onApply(draft);
  };
  const reset = () => {
    setDraft(emptyAuditFilter);
    setError('');
    onApply(emptyAuditFilter);
  };

  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Filter
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={submit} aria-label="Filter the audit trail">
          <Form.Group className="mb-2" controlId="audit-actor">
            <Form.Label>User or device key</Form.Label>
            <Form.Control size="sm" value={draft.actor} onChange={(e) => set({ actor: e.target.value })} />
          </Form.Group>
          <Form.Group className="mb-2" controlId="audit-record-type">
            <Form.Label>Record type</Form.Label>
            <Form.Select
              size="sm"
              value={draft.recordType}
              onChange={(e) => set({ recordType: e.target.value as AuditRecordType | '' })}
            >
              <option value="">Any</option>
              {auditRecordTypes.map((t) => (
                <option key={t} value={t}>
                  {auditRecordLabels[t]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
          <Form.Group className="mb-2" controlId="audit-record-id">
            <Form.Label>Record ID</Form.Label>
            <Form.Control
              size="sm"
              className="font-monospace"
              value={draft.recordId}
              isInvalid={error.startsWith('Record ID')}
              onChange={(e) => set({ recordId: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="mb-2" controlId="audit-start">
            <Form.Label>From (UTC)</Form.Label>
            <DateTimeInput
              size="sm"
              placeholder="YYYY-MM-DD HH:mm:ss"
              value={draft.start}
              isInvalid={error.startsWith('From (UTC)')}
              onChange={(e) => set({ start: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="mb-3" controlId="audit-stop">
            <Form.Label>To (UTC)</Form.Label>
            <DateTimeInput
              size="sm"
              edge="end"
              placeholder="YYYY-MM-DD HH:mm:ss"
              value={draft.stop}
              isInvalid={error.startsWith('From must') || error.startsWith('To (UTC)')}
              onChange={(e) => set({ stop: e.target.value })}
            />
          </Form.Group>
          {error && (
            <div className="small text-danger mb-2" role="alert">
              {error}
            </div>
          )}
          <div className="d-flex justify-content-end gap-2">
            <Button size="sm" variant="secondary" onClick={reset}>
              Reset
            </Button>
            <Button size="sm" variant="primary" type="submit">
              Filter
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}

/** What one entry changed, in a few lines. */
function EntryChanges({ entry }: { entry: AuditEntry }) {
  const fields = changedFields(entry);
  if (fields.length > 0) {
    return (
      <>
        {fields.map((c) => (
          <div key={c.field} className="text-break">
            <strong>{c.field}</strong>: {c.before ? <del>{c.before}</del> : null}
            {c.before && c.after ? ' → ' : null}
            {c.after}
          </div>
        ))}
      </>
    );
  }
  const name = recordName(entry);
  const side = entry.old_value !== null && entry.new_value === null ? 'was' : '';
  if (name) return <div className="text-break">{side ? `${side} ${name}` : name}</div>;
  if (entry.action === 'wipe') return <div>{JSON.stringify(entry.old_value)}</div>;
  return null;
}

function AuditTable({
  entries,
  onRecord,
  onRestore,
}: {
  entries: AuditEntry[];
  onRecord: (e: AuditEntry) => void;
  onRestore: (e: AuditEntry) => void;
}) {
  return (
    <Table responsive size="sm" className="mb-0 align-middle small" aria-labelledby="audit-title">
      <TableHead columns={['When (UTC)', 'Who', 'Action', 'Record', 'Changes']} />
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.seq} data-testid="audit-row">
            <td className="text-nowrap">{formatUtc(entry.at)}</td>
            <td>
              {entry.actor_name ?? '—'}
              {entry.actor_kind === 'key' && <div className="text-secondary">device key</div>}
            </td>
            <td>
              {entry.action}
              {entry.route && <div className="text-secondary font-monospace text-break">{entry.route}</div>}
            </td>
            <td>
              {auditRecordLabels[entry.record_type as AuditRecordType] ?? entry.record_type}
              {entry.record_id && (
                <div>
                  <button
                    type="button"
                    className="btn btn-link btn-sm p-0 font-monospace small"
                    title="Show only this record"
                    aria-label={`Show only record ${entry.record_id}`}
                    onClick={() => onRecord(entry)}
                  >
                    {entry.record_id}
                  </button>
                </div>
              )}
            </td>
            <td>
              <EntryChanges entry={entry} />
            </td>
            <td className="text-center text-nowrap">
              {isRestorable(entry) && (
                <Button
                  size="sm"
                  variant="outline-primary"
                  aria-label={`Restore event ${recordName(entry)} deleted ${formatUtc(entry.at)}`}
                  onClick={() => onRestore(entry)}
                >
                  Restore
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function AuditAdmin() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<AuditFilter>(emptyAuditFilter);
  const [filterKey, setFilterKey] = useState(0);
  const [page, setPage] = useState(1);
  const audit = useAuditPage(filter, page, pageSize);
  useLoggedReadError(audit.error, 'the audit trail');
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [exporting, setExporting] = useState(false);
  const [restoring, setRestoring] = useState<AuditEntry | null>(null);
  const [busy, setBusy] = useState(false);

  const apply = (next: AuditFilter) => {
    setFilter(next);
    setPage(1);
  };
  const showRecord = (entry: AuditEntry) => {
    apply({
      ...emptyAuditFilter,
      recordType: entry.record_type as AuditRecordType,
      recordId: entry.record_id ?? '',
    });
    // The form shows the filter it applies.
    setFilterKey((k) => k + 1);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      saveBlob(await getAuditCsv(filter), auditCsvFileName(new Date()));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setExporting(false);
    }
  };

  const restore = async () => {
    if (!restoring) return;
    setBusy(true);
    try {
      await restoreFromAudit(restoring.seq);
      setSuccess(`Event ${recordName(restoring)} restored`);
      await queryClient.invalidateQueries({ queryKey: auditKeys.all });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setRestoring(null);
    }
  };

  const data = audit.data;
  return (
    <Row className="g-3">
      <Col lg={3}>
        <AuditFilterForm key={filterKey} applied={filter} onApply={apply} />
      </Col>
      <Col lg={9}>
        <ErrorAlert message={error} onClose={() => setError('')} />
        <SuccessAlert message={success} onClose={() => setSuccess('')} />
        <Card className="mb-3">
          <Card.Header className="d-flex align-items-center">
            <h2 className="h6 mb-0 me-auto" id="audit-title">
              Audit Trail
              {data && <span className="text-secondary fw-normal"> ({data.total.toLocaleString('en-US')})</span>}
            </h2>
            {data && data.total > 0 && !exporting && (
              <IconButton
                icon="bi-download"
                label="Export these entries as CSV"
                className="text-primary"
                onClick={() => void exportCsv()}
              />
            )}
            {exporting && <span className="small text-secondary">Exporting...</span>}
          </Card.Header>
          {audit.isError && !data ? (
            <Card.Body>
              <ErrorAlert className="mb-0" message={errorMessage(audit.error)} />
            </Card.Body>
          ) : audit.isPending ? (
            <Card.Body>
              <LoadingText text={statusTexts.loading} />
            </Card.Body>
          ) : !data || data.entries.length === 0 ? (
            <Card.Body>
              <EmptyText>No audit entries found!</EmptyText>
            </Card.Body>
          ) : (
            <AuditTable entries={data.entries} onRecord={showRecord} onRestore={setRestoring} />
          )}
        </Card>
        {data && (
          <Pagination
            page={page}
            total={data.total}
            pageSize={pageSize}
            onChange={setPage}
            label="Audit trail pages"
            className="justify-content-center"
          />
        )}
      </Col>
      <ConfirmModal
        show={restoring !== null}
        title="Confirm Restore"
        body={`Are you sure you want to restore the event ${restoring ? recordName(restoring) : ''} deleted ${
          restoring ? formatUtc(restoring.at) : ''
        } by ${restoring?.actor_name ?? 'an unknown user'}?`}
        confirmLabel="Restore"
        busy={busy}
        onConfirm={() => void restore()}
        onHide={() => setRestoring(null)}
      />
    </Row>
  );
}

/** /audit: the global audit trail under System Management, admins only (docs/screens.md#audit). */
export function AuditScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly}>
      <AuditAdmin />
    </RoleGate>
  );
}

import { Badge, Button, Table } from 'react-bootstrap';
import type { AuxManager, AuxManagerState } from '@bathylog/shared';
import { ListCard } from '../../components/list-card';
import { TableHead } from '../../components/table-head';
import { formatAgo, formatUtc } from '../../lib/format';

/** Each state's colour, with a text colour that keeps AA contrast; the badge always says the state too. */
const stateLook: Record<AuxManagerState, { bg: string; black?: true; label: string }> = {
  ok: { bg: 'success', black: true, label: 'OK' },
  stale: { bg: 'warning', black: true, label: 'Stale' },
  error: { bg: 'danger', label: 'Error' },
  disabled: { bg: 'secondary', label: 'Disabled' },
};

export function AuxStateBadge({ state }: { state: AuxManagerState }) {
  const look = stateLook[state];
  return (
    <Badge bg={look.bg} className={look.black ? 'text-black' : undefined} data-testid="aux-state">
      {look.label}
    </Badge>
  );
}

function When({ at, now }: { at: string | null; now: number }) {
  if (!at) return <>Never</>;
  return (
    <>
      {formatAgo(at, now)}
      <div className="text-nowrap">{formatUtc(at)}</div>
    </>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

export interface ManagersTableProps {
  managers: AuxManager[];
  loading: boolean;
  error: string;
  selectedId: string | null;
  busyId: string | null;
  onEdit: (m: AuxManager) => void;
  onToggle: (m: AuxManager) => void;
}

/**
 * The managers with their live health: state, last value's time, last success, last error (never a secret:
 * the server leaves credentials out), counters; enable/disable and edit per row.
 */
export function ManagersTable({ managers, loading, error, selectedId, busyId, onEdit, onToggle }: ManagersTableProps) {
  const now = Date.now();
  return (
    <ListCard
      title="Aux Data Managers"
      titleId="aux-managers-title"
      error={error}
      loading={loading}
      empty={managers.length === 0}
      emptyText="No aux data managers found! Add one with the form, or name a managers file in the configuration."
    >
      <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="aux-managers-title">
        <TableHead columns={['Manager', 'Last Value', 'Last Success', 'Counters']} />
        <tbody>
          {managers.map((m) => (
            <tr
              key={m.id}
              data-testid={`aux-manager-row-${m.name}`}
              className={m.id === selectedId ? 'table-active' : undefined}
            >
              <td>
                <span className="me-2 fw-semibold">{m.name}</span>
                <AuxStateBadge state={m.health.state} />
                {m.required && (
                  <Badge bg="light" className="ms-1 text-black border">
                    Required
                  </Badge>
                )}
                <div className="small">
                  {m.health.data_source || m.data_source} · {m.kind}
                  {m.historical ? '' : ' · live only'}
                  {m.from_file ? ' · from file' : ''}
                </div>
                {m.health.last_error && m.health.state !== 'ok' && (
                  <div className="small text-break text-danger-emphasis" data-testid="aux-last-error">
                    {m.health.last_error}
                  </div>
                )}
              </td>
              <td className="small">
                <When at={m.health.last_value_ts} now={now} />
              </td>
              <td className="small">
                <When at={m.health.last_success} now={now} />
              </td>
              <td className="small text-nowrap" data-testid="aux-counters">
                {count(m.health.counters.written)} written
                <div>{count(m.health.counters.skipped_stale)} stale</div>
                <div>{count(m.health.counters.no_data)} no data</div>
                <div>{count(m.health.counters.excluded)} excluded</div>
                {m.health.counters.external > 0 && <div>{count(m.health.counters.external)} by others</div>}
                {m.health.counters.errors + m.health.counters.timeouts > 0 && (
                  <div>{count(m.health.counters.errors + m.health.counters.timeouts)} failed</div>
                )}
              </td>
              <td className="text-end text-nowrap">
                <Button
                  size="sm"
                  variant={m.enabled ? 'outline-secondary' : 'outline-primary'}
                  className="me-1"
                  disabled={busyId === m.id}
                  onClick={() => onToggle(m)}
                  aria-label={`${m.enabled ? 'Disable' : 'Enable'} manager ${m.name}`}
                >
                  {m.enabled ? 'Disable' : 'Enable'}
                </Button>
                <Button
                  size="sm"
                  variant="outline-primary"
                  onClick={() => onEdit(m)}
                  aria-label={`Edit manager ${m.name}`}
                >
                  Edit
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ListCard>
  );
}

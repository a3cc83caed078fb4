import { Badge, Table } from 'react-bootstrap';
import { shipStateLabels, type Ship, type ShipState } from '@bathylog/shared';
import { EditDeleteButtons } from '../../components/icon-button';
import { ListCard } from '../../components/list-card';
import { formatAgo, formatBytes, formatUtc } from '../../lib/format';
import { useEntityNames } from '../../lib/settings';
import { TableHead } from '../../components/table-head';

/**
 * Each state's colour and a text colour that keeps AA contrast on it in the theme; the badge
 * always carries the state's words too.
 */
const stateLook: Record<ShipState, { bg: string; black?: true }> = {
  following: { bg: 'success', black: true },
  catching_up: { bg: 'primary', black: true },
  offline: { bg: 'secondary' },
  refused: { bg: 'danger' },
  paused: { bg: 'warning', black: true },
};

export function ShipStateBadge({ state }: { state: ShipState }) {
  const look = stateLook[state];
  return (
    <Badge bg={look.bg} className={look.black ? 'text-black' : undefined} data-testid="ship-state">
      {shipStateLabels[state]}
    </Badge>
  );
}

/** A last contact: how long ago, then the UTC time; "Never" before the first. */
export function LastContact({ at, now }: { at: string | null; now: number }) {
  if (!at) return <>Never</>;
  return (
    <>
      {formatAgo(at, now)}
      <div className="text-nowrap">{formatUtc(at)}</div>
    </>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The changes the shore refused from this ship (docs/ship-to-shore.md#refused-changes): how many,
 * and the latest with their reasons, folded away.
 */
export function ShipRefusals({ ship }: { ship: Ship }) {
  if (ship.refused_changes === 0) return null;
  const n = ship.refused_changes;
  return (
    <details className="small" data-testid="ship-refusals">
      <summary className="text-danger-emphasis">
        {count(n)} {n === 1 ? 'change' : 'changes'} refused
      </summary>
      <ul className="mb-0 ps-3">
        {ship.refusals.map((r, i) => (
          <li key={i} className="text-break">
            {r.record_type} {r.record_id}: {r.reason} <span className="text-nowrap">({formatUtc(r.at)})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

export interface ShipsTableProps {
  ships: Ship[];
  loading: boolean;
  /** The list's read failed (shown instead of the rows). */
  error: string;
  selectedId: string | null;
  onEdit: (ship: Ship) => void;
  onDelete: (ship: Ship) => void;
}

/**
 * The ships this server follows: name, state, address and last error, last contact, how far behind, what is
 * queued, what has been copied; edit and delete per row.
 */
export function ShipsTable({ ships, loading, error, selectedId, onEdit, onDelete }: ShipsTableProps) {
  const now = Date.now();
  const names = useEntityNames();
  return (
    <ListCard
      title="Ships Followed"
      titleId="ships-title"
      error={error}
      loading={loading}
      empty={ships.length === 0}
      emptyText="No ships found! Add one with the form."
    >
      <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="ships-title">
        <TableHead columns={['Ship', 'Last Contact', 'Behind', 'Queued', 'Copied']} />
        <tbody>
          {ships.map((ship) => (
            <tr
              key={ship.id}
              data-testid={`ship-row-${ship.name}`}
              className={ship.id === selectedId ? 'table-active' : undefined}
            >
              <td>
                <span className="me-2">{ship.name}</span>
                <ShipStateBadge state={ship.state} />
                <div className="small text-break">{ship.url}</div>
                {ship.bandwidth_kbps !== null && <div className="small">cap {count(ship.bandwidth_kbps)} kbit/s</div>}
                {ship.last_error && <div className="small text-break text-danger-emphasis">{ship.last_error}</div>}
                <ShipRefusals ship={ship} />
              </td>
              <td className="small">
                <LastContact at={ship.last_contact} now={now} />
              </td>
              <td className="small text-nowrap">
                {count(ship.behind_records)} records
                <div>{formatBytes(ship.behind_bytes)}</div>
              </td>
              <td className="small text-nowrap">
                {count(ship.queued_files)} files
                <div>{formatBytes(ship.queued_bytes)}</div>
              </td>
              <td className="small text-nowrap">
                {count(ship.records.cruises)} {names.cruises}
                <div>
                  {count(ship.records.lowerings)} {names.lowerings}
                </div>
                <div>{count(ship.records.events)} events</div>
                <div>{count(ship.records.aux_data)} aux data</div>
                <div>{count(ship.records.files)} files</div>
              </td>
              <td className="text-center text-nowrap">
                <EditDeleteButtons
                  record={`ship ${ship.name}`}
                  onEdit={() => onEdit(ship)}
                  onDelete={() => onDelete(ship)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ListCard>
  );
}

import { Card, Table } from 'react-bootstrap';
import type { SyncStatus } from '@bathylog/shared';
import { ErrorAlert } from '../../components/alerts';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { formatBytes } from '../../lib/format';
import { LastContact } from './ships-table';

/**
 * "This Server as a Ship": the shore servers following this one, each by the device key it uses,
 * with its last contact, where it has read up to and how far behind it is.
 */
export function FollowersCard({
  status,
  loading,
  error,
}: {
  /** null: this server answers no follower status. */
  status: SyncStatus | null | undefined;
  loading: boolean;
  error: string;
}) {
  const now = Date.now();
  const followers = status?.followers ?? [];
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0" id="followers-title">
        This Server as a Ship
      </Card.Header>
      {error ? (
        <Card.Body>
          <ErrorAlert className="mb-0" message={error} />
        </Card.Body>
      ) : loading ? (
        <Card.Body>
          <LoadingText text={statusTexts.loading} />
        </Card.Body>
      ) : followers.length === 0 ? (
        <Card.Body>
          <EmptyText>No shore server follows this server.</EmptyText>
        </Card.Body>
      ) : (
        <>
          {status?.head && (
            <Card.Body className="py-2 small">
              Head: <span className="font-monospace text-break">{status.head}</span>
            </Card.Body>
          )}
          <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="followers-title">
            <thead>
              <tr>
                <th scope="col">Device Key</th>
                <th scope="col">Last Contact</th>
                <th scope="col">Cursor</th>
                <th scope="col">Behind</th>
              </tr>
            </thead>
            <tbody>
              {followers.map((f) => (
                <tr key={f.key_id} data-testid={`follower-row-${f.key_name}`}>
                  <td>{f.key_name}</td>
                  <td className="small">
                    <LastContact at={f.last_contact} now={now} />
                  </td>
                  <td className="small font-monospace text-break">{f.cursor ?? 'None yet'}</td>
                  <td className="small text-nowrap">
                    {f.behind_records.toLocaleString('en-US')} records
                    <div>{formatBytes(f.behind_bytes)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </Card>
  );
}

import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Col, Form, Row, Table } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import {
  parseUtcInput,
  capabilityRoles,
  deviceKeyNameMaxLength,
  followRightOf,
  followRoleLabels,
  followRoles,
  roleLabel,
  roles as allRoles,
  type DeviceKey,
  type FollowRole,
  type Role,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { createDeviceKey, deviceKeyKeys, revokeDeviceKey, useDeviceKeys } from '../../api/device-keys';
import { ErrorAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { DateTimeInput } from '../../components/date-time-input';
import { IconButton } from '../../components/icon-button';
import { RoleGate } from '../../components/role-gate';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { formatUtc } from '../../lib/format';
import { useEntityNames } from '../../lib/settings';
import { readFailure, useLoggedReadError } from '../../lib/read-errors';
import { TableHead } from '../../components/table-head';

/** The follow right a key holds, as the screen names it (docs/screens.md#device-keys). */
function followLabel(key: DeviceKey): string | null {
  const right = followRightOf(key.roles);
  return right === 'none' ? null : followRoleLabels[right === 'everything' ? 'full_follower' : 'follower'];
}

function keyStatus(key: DeviceKey, now: number): { label: string; className: string } {
  if (key.revoked) return { label: 'Revoked', className: '' };
  if (key.expires && Date.parse(key.expires) <= now) return { label: 'Expired', className: 'text-warning' };
  return { label: 'Active', className: 'text-success' };
}

/** The table of keys: name, roles, created (by whom), last used (from where), expiry, status. */
function DeviceKeysTable({
  keys,
  loading,
  error,
  onRevoke,
}: {
  keys: DeviceKey[];
  loading: boolean;
  error: unknown;
  onRevoke: (k: DeviceKey) => void;
}) {
  const now = Date.now();
  const names = useEntityNames();
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0" id="device-keys-title">
        Device Keys
      </Card.Header>
      {loading ? (
        <Card.Body>
          <LoadingText text={statusTexts.loading} />
        </Card.Body>
      ) : readFailure(error) ? (
        <Card.Body>
          <ErrorAlert message={readFailure(error)} className="mb-0" />
        </Card.Body>
      ) : keys.length === 0 ? (
        <Card.Body>
          <EmptyText>No device keys found!</EmptyText>
        </Card.Body>
      ) : (
        <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="device-keys-title">
          <TableHead columns={['Name', 'Roles', 'Created', 'Last Used', 'Expires', 'Status']} />
          <tbody>
            {keys.map((key) => {
              const status = keyStatus(key, now);
              return (
                <tr key={key.id} data-testid={`device-key-row-${key.name}`}>
                  <td>
                    {key.name}
                    <div className="small font-monospace">{key.key_prefix}…</div>
                  </td>
                  <td className="small">
                    {key.roles
                      .filter((r) => !(followRoles as readonly string[]).includes(r))
                      .map((role) => roleLabel(role, names.Cruise))
                      .join(', ')}
                    {followLabel(key) && <div className="fw-bold">{followLabel(key)}</div>}
                  </td>
                  <td className="small">
                    {formatUtc(key.created)}
                    <div>by {key.created_by}</div>
                  </td>
                  <td className="small">
                    {key.last_used ? (
                      <>
                        {formatUtc(key.last_used)}
                        {key.last_used_address && <div>from {key.last_used_address}</div>}
                      </>
                    ) : (
                      'Never'
                    )}
                  </td>
                  <td className="small">{key.expires ? formatUtc(key.expires) : 'Never'}</td>
                  <td>
                    <span className={`fw-bold ${status.className}`}>{status.label}</span>
                    {key.revoked && (
                      <div className="small">
                        {formatUtc(key.revoked)} by {key.revoked_by}
                      </div>
                    )}
                  </td>
                  <td className="text-center">
                    {!key.revoked && (
                      <IconButton
                        icon="bi-x-circle-fill"
                        label={`Revoke device key ${key.name}`}
                        className="text-danger"
                        onClick={() => onRevoke(key)}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
    </Card>
  );
}

/** The create form: name, roles, optional expiry (UTC). The new key is shown once below it. */
function CreateDeviceKeyForm({ onCreated }: { onCreated: () => Promise<unknown> }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Role[]>(['event_logger']);
  const [follow, setFollow] = useState<FollowRole | null>(null);
  const names = useEntityNames();
  const [expires, setExpires] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const nameMissing = name.trim() === '';
  const expiresAt = expires.trim() ? parseUtcInput(expires, 'end') : undefined;
  const expiresBad = expiresAt === null;
  // A shore's key needs no other role: the follow right alone lets it copy and comment.
  const noRight = chosen.length === 0 && follow === null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (nameMissing || noRight || expiresAt === null) return;
    setBusy(true);
    setError('');
    try {
      const res = await createDeviceKey({
        name: name.trim(),
        roles: follow ? [...chosen, follow] : chosen,
        ...(expiresAt !== undefined ? { expires: new Date(expiresAt).toISOString() } : {}),
      });
      setCreated({ name: res.name, key: res.key });
      setName('');
      setExpires('');
      setFollow(null);
      await onCreated();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Create Device Key
      </Card.Header>
      <Card.Body>
        <ErrorAlert message={error} onClose={() => setError('')} />
        {created && (
          <Alert variant="success" role="status" onClose={() => setCreated(null)} dismissible>
            <strong>Success!</strong> Key for {created.name} created. Copy it now: it will not be shown again.
            <Form.Control
              className="mt-2 font-monospace"
              readOnly
              value={created.key}
              aria-label={`New device key for ${created.name}`}
              onFocus={(e) => e.currentTarget.select()}
            />
          </Alert>
        )}
        <Form noValidate onSubmit={(e) => void submit(e)} aria-label="Create Device Key">
          <Form.Group className="mb-2" controlId="device-key-name">
            <Form.Label>Name</Form.Label>
            <Form.Control
              size="sm"
              value={name}
              maxLength={deviceKeyNameMaxLength}
              placeholder="e.g. StreamDeck bridge"
              onChange={(e) => setName(e.target.value)}
            />
          </Form.Group>
          <fieldset className="mb-2">
            <legend className="form-label fs-6">Roles</legend>
            {allRoles.map((role) => (
              <Form.Check
                key={role}
                id={`device-key-role-${role}`}
                label={roleLabel(role, names.Cruise)}
                checked={chosen.includes(role)}
                onChange={(e) =>
                  setChosen((prev) => (e.target.checked ? [...prev, role] : prev.filter((r) => r !== role)))
                }
              />
            ))}
            {noRight && <div className="small text-danger">Must select at least one role or a follow right</div>}
          </fieldset>
          <fieldset className="mb-2" aria-describedby="device-key-follow-help">
            <legend className="form-label fs-6">Ship to Shore</legend>
            <Form.Check
              type="radio"
              name="device-key-follow"
              id="device-key-follow-none"
              label="Does not follow this server"
              checked={follow === null}
              onChange={() => setFollow(null)}
            />
            {followRoles.map((role) => (
              <Form.Check
                key={role}
                type="radio"
                name="device-key-follow"
                id={`device-key-follow-${role}`}
                label={followRoleLabels[role]}
                checked={follow === role}
                onChange={() => setFollow(role)}
              />
            ))}
            <Form.Text id="device-key-follow-help">
              For a shore server that follows this ship: it copies the cruises, lowerings, events and files the right
              allows and sends back comments. A reader&apos;s copy leaves out cruises and lowerings with an access list.
            </Form.Text>
          </fieldset>
          <Form.Group className="mb-3" controlId="device-key-expires">
            <Form.Label>Expires (UTC, optional)</Form.Label>
            <DateTimeInput
              size="sm"
              edge="end"
              placeholder="YYYY-MM-DD HH:mm:ss"
              value={expires}
              isInvalid={expiresBad}
              onChange={(e) => setExpires(e.target.value)}
              feedback={
                <Form.Control.Feedback type="invalid">{expiresBad ? 'Invalid timestamp' : ''}</Form.Control.Feedback>
              }
            />
          </Form.Group>
          <div className="d-flex justify-content-end">
            <Button type="submit" size="sm" variant="primary" disabled={busy || nameMissing || noRight}>
              Create Key
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}

function DeviceKeysAdmin() {
  const queryClient = useQueryClient();
  const keys = useDeviceKeys();
  useLoggedReadError(keys.error, 'device keys');
  const [revoking, setRevoking] = useState<DeviceKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: deviceKeyKeys.all });

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    try {
      await revokeDeviceKey(revoking.id);
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  return (
    <Row className="g-3">
      <Col lg={8}>
        <ErrorAlert message={error} onClose={() => setError('')} />
        <DeviceKeysTable keys={keys.data ?? []} loading={keys.isPending} error={keys.error} onRevoke={setRevoking} />
      </Col>
      <Col lg={4}>
        <CreateDeviceKeyForm onCreated={refresh} />
      </Col>
      <ConfirmModal
        show={revoking !== null}
        title="Confirm Revocation"
        body={`Are you sure you want to revoke the device key ${revoking?.name ?? ''}? Devices using it stop at once.`}
        confirmLabel="Revoke"
        busy={busy}
        onConfirm={() => void revoke()}
        onHide={() => setRevoking(null)}
      />
    </Row>
  );
}

/** /device_keys: admins only (docs/screens.md#device-keys). */
export function DeviceKeysScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly}>
      <DeviceKeysAdmin />
    </RoleGate>
  );
}

import { useState, type FormEvent } from 'react';
import { Button, Card, Col, Form, Row } from 'react-bootstrap';
import type { AuxManager } from '@bathylog/shared';
import { createAuxManager, deleteAuxManager, updateAuxManager } from '../../api/aux-managers';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';

/** The kinds the server knows today; the server refuses any other with a message naming them. */
const knownKinds = ['influx', 'gpsd', 'nmea', 'openrvdas', 'openrvdas_ws', 'mqtt', 'http_snapshot', 'ffmpeg_still'];

const exampleYaml = `data_source: vehicleRealtimeNavData
query_measurements:
  - seapath1
aux_record_lookup:
  S1Latitude:
    name: latitude
    uom: ddeg
    round: 6
source:
  url: http://127.0.0.1:8086
  database: openrvdas
`;

export interface ManagerFormProps {
  /** The manager edited; null = add. Mount with `key={manager?.id ?? 'new'}`. */
  manager: AuxManager | null;
  onSaved: () => Promise<unknown>;
  onDeleted: () => void;
}

/**
 * Add or edit a manager (docs/aux-managers.md#the-system-screen): its name, kind, switches, limits and its
 * Sealog-style YAML. The server checks the YAML and answers a message naming the key, shown here as it is.
 */
export function ManagerForm({ manager, onSaved, onDeleted }: ManagerFormProps) {
  const [name, setName] = useState(manager?.name ?? '');
  const [kind, setKind] = useState(manager?.kind ?? 'influx');
  const [enabled, setEnabled] = useState(manager?.enabled ?? true);
  const [required, setRequired] = useState(manager?.required ?? false);
  const [maxAge, setMaxAge] = useState(String(manager?.max_age_seconds ?? 20));
  const [timeout, setTimeoutSeconds] = useState(String(manager?.timeout_seconds ?? 5));
  const [yaml, setYaml] = useState(manager?.config_yaml ?? exampleYaml);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setSaved('');
    const max_age_seconds = Number(maxAge);
    const timeout_seconds = Number(timeout);
    if (!(max_age_seconds > 0)) return setError('max age: must be a number of seconds above 0');
    if (!(timeout_seconds > 0)) return setError('timeout: must be a number of seconds above 0');
    setBusy(true);
    try {
      const body = { name: name.trim(), enabled, required, max_age_seconds, timeout_seconds, config_yaml: yaml };
      if (manager) await updateAuxManager(manager.id, body);
      else await createAuxManager({ ...body, kind });
      setSaved(manager ? 'Manager updated.' : 'Manager added.');
      await onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const [confirming, setConfirming] = useState(false);
  const remove = async () => {
    if (!manager) return;
    setBusy(true);
    try {
      await deleteAuxManager(manager.id);
      setConfirming(false);
      onDeleted();
    } catch (err) {
      setConfirming(false);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        {manager ? `Update Manager ${manager.name}` : 'Add Manager'}
      </Card.Header>
      <Card.Body>
        <Form onSubmit={(e) => void submit(e)} aria-label={manager ? 'Update manager' : 'Add manager'}>
          <ErrorAlert message={error} onClose={() => setError('')} />
          <SuccessAlert message={saved} onClose={() => setSaved('')} />
          <Form.Group className="mb-2" controlId="aux-name">
            <Form.Label>Name</Form.Label>
            <Form.Control value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
          </Form.Group>
          <Form.Group className="mb-2" controlId="aux-kind">
            <Form.Label>Kind</Form.Label>
            <Form.Select value={kind} onChange={(e) => setKind(e.target.value)} disabled={!!manager}>
              {knownKinds.map((k) => (
                <option key={k}>{k}</option>
              ))}
            </Form.Select>
          </Form.Group>
          <Row className="g-2 mb-2">
            <Col>
              <Form.Group controlId="aux-max-age">
                <Form.Label>Max age (s)</Form.Label>
                <Form.Control inputMode="decimal" value={maxAge} onChange={(e) => setMaxAge(e.target.value)} />
              </Form.Group>
            </Col>
            <Col>
              <Form.Group controlId="aux-timeout">
                <Form.Label>Timeout (s)</Form.Label>
                <Form.Control inputMode="decimal" value={timeout} onChange={(e) => setTimeoutSeconds(e.target.value)} />
              </Form.Group>
            </Col>
          </Row>
          <Form.Check
            id="aux-enabled"
            className="mb-1"
            label="Enabled"
            checked={enabled}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <Form.Check
            id="aux-required"
            className="mb-2"
            label="Required (every dive's events must carry its data source; the footer warns when it is not OK)"
            checked={required}
            onChange={(e) => setRequired(e.target.checked)}
          />
          <Form.Group className="mb-3" controlId="aux-yaml">
            <Form.Label>Configuration (Sealog YAML, plus source:)</Form.Label>
            <Form.Control
              as="textarea"
              rows={14}
              spellCheck={false}
              className="font-monospace small"
              value={yaml}
              onChange={(e) => setYaml(e.target.value)}
            />
          </Form.Group>
          <div className="d-flex justify-content-between">
            {manager ? (
              <Button variant="outline-danger" size="sm" disabled={busy} onClick={() => setConfirming(true)}>
                Delete
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" variant="primary" size="sm" disabled={busy}>
              {manager ? 'Update' : 'Add'}
            </Button>
          </div>
        </Form>
      </Card.Body>
      <ConfirmModal
        show={confirming}
        body={`Are you sure you want to delete the manager ${manager?.name ?? ''}? The records it wrote stay.`}
        busy={busy}
        onConfirm={() => void remove()}
        onHide={() => setConfirming(false)}
      />
    </Card>
  );
}

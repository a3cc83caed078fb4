import { useEffect, useState, type FormEvent } from 'react';
import { Button, Card, Col, Form, Row, Table } from 'react-bootstrap';
import {
  basisOfRecordValues,
  capabilityRoles,
  publicationLicences,
  type DatasetSettings,
  type EventListMapping,
  type MeasurementMapping,
  type PublicationSettings,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { RoleGate } from '../../components/role-gate';
import { LoadingText } from '../../components/status-text';
import { usePublicationSettings, useSavePublicationSettings } from './publication-api';

type Column<T> = { key: keyof T & string; label: string; width?: number; type?: 'number' };

const measurementColumns: Array<Column<MeasurementMapping>> = [
  { key: 'data_source', label: 'Data source' },
  { key: 'data_name', label: 'Data name' },
  { key: 'type', label: 'Measurement type' },
  { key: 'type_id', label: 'P01 code', width: 110 },
  { key: 'unit', label: 'Unit', width: 90 },
  { key: 'unit_id', label: 'P06 code', width: 90 },
  { key: 'source_unit', label: 'Source unit', width: 90 },
  { key: 'scale', label: 'Scale', width: 80, type: 'number' },
  { key: 'offset', label: 'Offset', width: 80, type: 'number' },
];

const eventListColumns: Array<Column<EventListMapping>> = [
  { key: 'event_value', label: 'Template (event value)' },
  { key: 'instrument', label: 'Instrument' },
  { key: 'action', label: 'Action' },
  { key: 'device', label: 'PANGAEA device' },
];

/** An editable table of mapping rows: every cell an input labelled by its column and row. */
function MappingTable<T extends object>({
  name,
  columns,
  rows,
  onChange,
  blank,
}: {
  name: string;
  columns: Array<Column<T>>;
  rows: T[];
  onChange: (rows: T[]) => void;
  blank: T;
}) {
  const set = (i: number, key: keyof T, value: string, numeric: boolean) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, [key]: numeric ? Number(value) : value } : r)));
  return (
    <>
      <Table size="sm" bordered responsive className="mb-2" data-testid={`${name}-table`}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" style={c.width ? { width: c.width } : undefined}>
                {c.label}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.key}>
                  <Form.Control
                    size="sm"
                    type={c.type ?? 'text'}
                    step={c.type === 'number' ? 'any' : undefined}
                    aria-label={`${c.label}, row ${i + 1}`}
                    value={String((row as Record<string, unknown>)[c.key] ?? '')}
                    onChange={(e) => set(i, c.key, e.target.value, c.type === 'number')}
                  />
                </td>
              ))}
              <td>
                <Button
                  size="sm"
                  variant="outline-danger"
                  aria-label={`Remove row ${i + 1}`}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                >
                  <i className="bi bi-trash" aria-hidden="true" />
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Button size="sm" variant="outline-primary" onClick={() => onChange([...rows, { ...blank }])}>
        Add row
      </Button>
    </>
  );
}

const listText = (items: readonly string[]) => items.join(', ');
const textList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function SettingsForm({ initial }: { initial: PublicationSettings }) {
  const [dataset, setDataset] = useState<DatasetSettings>(initial.dataset);
  const [measurements, setMeasurements] = useState<MeasurementMapping[]>(initial.measurements);
  const [eventLists, setEventLists] = useState<EventListMapping[]>(initial.event_lists);
  const [saved, setSaved] = useState(false);
  const save = useSavePublicationSettings();
  useEffect(() => setSaved(false), [dataset, measurements, eventLists]);

  const text = (key: keyof DatasetSettings, label: string, help?: string) => (
    <Form.Group as={Col} md={6} className="mb-2" controlId={`publication-${key}`}>
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control
        size="sm"
        value={String(dataset[key])}
        onChange={(e) => setDataset({ ...dataset, [key]: e.target.value })}
        aria-describedby={help ? `publication-${key}-help` : undefined}
      />
      {help && (
        <Form.Text id={`publication-${key}-help`} className="small">
          {help}
        </Form.Text>
      )}
    </Form.Group>
  );
  const list = (key: 'vehicle_nav_sources' | 'vessel_nav_sources' | 'observation_values', label: string) => (
    <Form.Group as={Col} md={4} className="mb-2" controlId={`publication-${key}`}>
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control
        size="sm"
        defaultValue={listText(dataset[key])}
        onBlur={(e) => setDataset({ ...dataset, [key]: textList(e.target.value) })}
      />
    </Form.Group>
  );
  const number = (key: 'vehicle_uncertainty_m' | 'vessel_uncertainty_m', label: string) => (
    <Form.Group as={Col} md={3} className="mb-2" controlId={`publication-${key}`}>
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control
        size="sm"
        type="number"
        min={1}
        value={dataset[key]}
        onChange={(e) => setDataset({ ...dataset, [key]: Number(e.target.value) })}
      />
    </Form.Group>
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate({ dataset, measurements, event_lists: eventLists }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Form onSubmit={submit} aria-label="Publication settings">
      <Card className="mb-3">
        <Card.Header>Dataset</Card.Header>
        <Card.Body>
          <Row>
            {text('publisher', 'Publisher (institution)')}
            {text('contact_name', 'Contact name')}
            {text('contact_email', 'Contact e-mail')}
            {text(
              'media_base_url',
              'Public address for frame grabs',
              'e.g. https://sealog.example.org; empty: BATHYLOG_PUBLIC_URL',
            )}
            <Form.Group as={Col} md={3} className="mb-2" controlId="publication-licence">
              <Form.Label className="small mb-0">Licence</Form.Label>
              <Form.Select
                size="sm"
                value={dataset.licence}
                onChange={(e) => setDataset({ ...dataset, licence: e.target.value as DatasetSettings['licence'] })}
              >
                {publicationLicences.map((l) => (
                  <option key={l}>{l}</option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group as={Col} md={3} className="mb-2" controlId="publication-basis">
              <Form.Label className="small mb-0">Basis of record</Form.Label>
              <Form.Select
                size="sm"
                value={dataset.basis_of_record}
                onChange={(e) =>
                  setDataset({ ...dataset, basis_of_record: e.target.value as DatasetSettings['basis_of_record'] })
                }
              >
                {basisOfRecordValues.map((b) => (
                  <option key={b}>{b}</option>
                ))}
              </Form.Select>
            </Form.Group>
            {number('vehicle_uncertainty_m', 'Vehicle position uncertainty (m)')}
            {number('vessel_uncertainty_m', 'Vessel position uncertainty (m)')}
            {list('vehicle_nav_sources', 'Vehicle navigation sources')}
            {list('vessel_nav_sources', 'Vessel navigation sources')}
            {list('observation_values', 'Observation event values')}
          </Row>
        </Card.Body>
      </Card>
      <Card className="mb-3">
        <Card.Header>Measurements (aux data → NERC vocabulary)</Card.Header>
        <Card.Body>
          <p className="small text-secondary">
            Each aux-data value published as a measurement: published value = source value × scale + offset.
          </p>
          <MappingTable
            name="measurements"
            columns={measurementColumns}
            rows={measurements}
            onChange={setMeasurements}
            blank={{
              data_source: '',
              data_name: '',
              type: '',
              type_id: '',
              unit: '',
              unit_id: '',
              source_unit: '',
              scale: 1,
              offset: 0,
            }}
          />
        </Card.Body>
      </Card>
      <Card className="mb-3">
        <Card.Header>Event lists (templates → instruments and actions)</Card.Header>
        <Card.Body>
          <MappingTable
            name="event-lists"
            columns={eventListColumns}
            rows={eventLists}
            onChange={setEventLists}
            blank={{ event_value: '', instrument: '', action: '', device: '' }}
          />
        </Card.Body>
      </Card>
      <ErrorAlert message={save.error ? errorMessage(save.error) : null} />
      <SuccessAlert message={saved ? 'Publication settings saved.' : null} />
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save'}
      </Button>
    </Form>
  );
}

/** System Management → Publication (admins): the dataset defaults and the two mappings (docs/publication.md#settings). */
export function PublicationSettingsScreen() {
  const settings = usePublicationSettings();
  return (
    <RoleGate roles={capabilityRoles.adminOnly}>
      <div className="container-fluid py-3" style={{ maxWidth: 1200 }}>
        <h1 className="h4">Publication Settings</h1>
        <ErrorAlert message={settings.error ? errorMessage(settings.error) : null} />
        {settings.data ? <SettingsForm initial={settings.data} /> : !settings.error && <LoadingText />}
      </div>
    </RoleGate>
  );
}

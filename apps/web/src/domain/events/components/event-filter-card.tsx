import { useState, type FormEvent } from 'react';
import { Button, Card, Form } from 'react-bootstrap';
import { customTimeFormat } from '@bathylog/shared';
import { DateTimeInput } from '../../../components/date-time-input';
import {
  checkEventFilter,
  emptyEventFilter,
  type EventFilterErrors,
  type EventFilterForm,
  type FilterBounds,
} from '../lib/event-filter';

const fields: Array<{ key: keyof EventFilterForm; label: string; placeholder: string }> = [
  { key: 'fulltext', label: 'Full text', placeholder: 'i.e. SAMPLE' },
  { key: 'author', label: 'Author', placeholder: 'i.e. jsmith' },
  { key: 'value', label: 'Value', placeholder: 'i.e. SAMPLE,CTD' },
  { key: 'datasource', label: 'Data source', placeholder: 'i.e. vehicleRealtimeNavData' },
  { key: 'start', label: 'Start Date/Time (UTC)', placeholder: customTimeFormat },
  { key: 'stop', label: 'Stop Date/Time (UTC)', placeholder: customTimeFormat },
];

/**
 * "Event Filter" (docs/screens.md#event-filter): comma lists for full text, author, value and data source;
 * start and stop in UTC as YYYY-MM-DD HH:mm:ss (or a date alone: the whole day), with a calendar, clamped to what the user may see. Filter applies;
 * Reset clears and applies.
 */
export function EventFilterCard({
  bounds,
  onApply,
  fields: shown,
  initial = emptyEventFilter,
}: {
  bounds: () => FilterBounds;
  onApply: (form: EventFilterForm) => void;
  /** The fields to offer (the review screens show Full text, Author, Start and Stop); all by default. */
  fields?: ReadonlyArray<keyof EventFilterForm>;
  /** The filter in force when the card mounts (the review store keeps it across screens). */
  initial?: EventFilterForm;
}) {
  const [form, setForm] = useState<EventFilterForm>(initial);
  const [errors, setErrors] = useState<EventFilterErrors | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkEventFilter(form, bounds());
    setForm(checked.form);
    setErrors(checked.errors);
    if (!checked.errors) onApply(checked.form);
  };

  const reset = () => {
    setForm(emptyEventFilter);
    setErrors(null);
    onApply(emptyEventFilter);
  };

  return (
    <Card data-testid="event-filter">
      <Card.Header>Event Filter</Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={submit}>
          {fields
            .filter((f) => !shown || shown.includes(f.key))
            .map((f) => (
              <Form.Group className="mb-2" controlId={`event-filter-${f.key}`} key={f.key}>
                <Form.Label className="small mb-1">{f.label}</Form.Label>
                {f.key === 'start' || f.key === 'stop' ? (
                  <DateTimeInput
                    size="sm"
                    edge={f.key === 'stop' ? 'end' : 'start'}
                    near={f.key === 'stop' ? bounds().max : bounds().min}
                    placeholder={f.placeholder}
                    value={form[f.key]}
                    isInvalid={!!errors?.[f.key]}
                    onChange={(e) => setForm((v) => ({ ...v, [f.key]: e.target.value }))}
                    feedback={<Form.Control.Feedback type="invalid">{errors?.[f.key]}</Form.Control.Feedback>}
                  />
                ) : (
                  <>
                    <Form.Control
                      size="sm"
                      type="text"
                      placeholder={f.placeholder}
                      value={form[f.key]}
                      isInvalid={!!errors?.[f.key]}
                      onChange={(e) => setForm((v) => ({ ...v, [f.key]: e.target.value }))}
                    />
                    <Form.Control.Feedback type="invalid">{errors?.[f.key]}</Form.Control.Feedback>
                  </>
                )}
              </Form.Group>
            ))}
          <div className="d-flex justify-content-end gap-2">
            <Button variant="outline-secondary" size="sm" onClick={reset}>
              Reset
            </Button>
            <Button variant="outline-primary" size="sm" type="submit">
              Filter
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}

import { useId, useMemo, useState, type FormEvent } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import {
  normalizeMilestoneTime,
  parseIsoTimestamp,
  validateMilestonesForm,
  type MilestoneField,
  type MilestoneSettings,
  type MilestoneValues,
  type StatsValues,
} from '@bathylog/shared';
import { DateTimeInput } from '../../components/date-time-input';
import { FieldLabel } from '../../components/form-field';

/** How the Tweak form shows a time: UTC with milliseconds (docs/screens.md#tweak-form). */
export const tweakTimeFormat = 'YYYY-MM-DD HH:mm:ss.SSS';

/** ISO → `YYYY-MM-DD HH:mm:ss.SSS` (UTC); '' stays ''. */
export function toTweakTime(iso: string): string {
  const t = iso ? parseIsoTimestamp(iso) : null;
  return t === null ? iso : new Date(t).toISOString().slice(0, 23).replace('T', ' ');
}

/**
 * The Tweak! form (docs/screens.md#tweak-form): millisecond date-times (UTC, typed as
 * `YYYY-MM-DD HH:mm:ss.SSS`; full ISO strings pasted from an event line work too) for the milestones, Max
 * Depth and the bounding box laid out as a compass. Done applies the values to the editor only
 * (Update saves); Cancel drops them.
 */
export function TweakForm({
  fields,
  milestones,
  stats,
  settings,
  onCancel,
  onDone,
}: {
  fields: readonly MilestoneField[];
  milestones: MilestoneValues;
  stats: StatsValues;
  settings: MilestoneSettings;
  onCancel: () => void;
  onDone: (milestones: MilestoneValues, stats: StatsValues) => void;
}) {
  const prefix = useId();
  const [picked, setPicked] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.key, toTweakTime(milestones[f.key] ?? '')])),
  );
  const [values, setValues] = useState<StatsValues>(stats);
  const [submitted, setSubmitted] = useState(false);

  const asMilestones = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(picked).map(([k, v]) => [k, normalizeMilestoneTime(v) || v.trim()]),
      ) as MilestoneValues,
    [picked],
  );
  const errors = useMemo(
    () => validateMilestonesForm(asMilestones, values, settings),
    [asMilestones, values, settings],
  );
  const shown = (key: string) => (submitted ? errors[key] : undefined);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length === 0) onDone({ ...milestones, ...asMilestones }, values);
  };

  const statField = (key: keyof StatsValues, label: string, hint: string) => {
    const id = `${prefix}-${key}`;
    const error = shown(key);
    return (
      <Form.Group controlId={id} className="mb-2">
        <Form.Label className="mb-0 small">{label}</Form.Label>
        <Form.Control
          size="sm"
          inputMode="decimal"
          value={values[key]}
          isInvalid={!!error}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
        />
        <Form.Text id={`${id}-hint`} className="text-secondary">
          {hint}
        </Form.Text>
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      </Form.Group>
    );
  };

  return (
    <Form noValidate onSubmit={submit} className="mt-3 tweak-form" aria-label="Tweak milestones and stats">
      <Row>
        <Col md={6}>
          <h6 className="milestones-heading">Milestones</h6>
          {fields.map((f) => {
            const id = `${prefix}-${f.key}`;
            const required = f.role === 'start' || f.role === 'stop';
            const error = shown(f.key);
            return (
              <Form.Group key={f.key} controlId={id} className="mb-2">
                <FieldLabel small required={required}>
                  {f.label} (UTC)
                </FieldLabel>
                <DateTimeInput
                  size="sm"
                  className="font-monospace"
                  placeholder={tweakTimeFormat}
                  required={required}
                  edge={f.role === 'stop' ? 'end' : 'start'}
                  value={picked[f.key] ?? ''}
                  isInvalid={!!error}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={(e) => setPicked((p) => ({ ...p, [f.key]: e.target.value }))}
                  feedback={
                    <Form.Control.Feedback type="invalid" id={`${id}-error`}>
                      {error}
                    </Form.Control.Feedback>
                  }
                />
              </Form.Group>
            );
          })}
        </Col>
        <Col md={6}>
          <h6 className="milestones-heading">Stats</h6>
          {statField('maxDepth', 'Max Depth', 'in meters')}
          <div className="mt-3 small fw-bold">Bounding Box</div>
          <div className="compass">
            <div className="compass-north">{statField('north', 'North', 'in ddeg')}</div>
            <div className="compass-west">{statField('west', 'West', 'in ddeg')}</div>
            <div className="compass-east">{statField('east', 'East', 'in ddeg')}</div>
            <div className="compass-south">{statField('south', 'South', 'in ddeg')}</div>
          </div>
        </Col>
      </Row>
      <div className="d-flex justify-content-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="warning" size="sm" type="submit">
          Done
        </Button>
      </div>
    </Form>
  );
}

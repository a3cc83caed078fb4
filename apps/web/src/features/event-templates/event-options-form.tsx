import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Form, Modal } from 'react-bootstrap';
import type { EventTemplate, EventTemplateOption } from '@bathylog/shared';
import {
  customTimeFormat,
  eventOptionsValues,
  initialEventOptionsState,
  validateEventOptions,
  type EventOptionsErrors,
  type EventOptionsState,
  type EventOptionsValues,
  type OptionAnswer,
} from './event-options';

/** A field label with the required asterisk beside it, so the field's name is exactly the label. */
function FieldLabel({ children, required = false }: { children: ReactNode; required?: boolean }) {
  return (
    <div className="d-flex mb-1">
      <Form.Label className="mb-0">{children}</Form.Label>
      {required && (
        <span className="text-danger ms-1" aria-hidden="true">
          *
        </span>
      )}
    </div>
  );
}

export type { EventOptionsValues } from './event-options';

export interface EventOptionsFormProps {
  /** The template whose options are asked for. */
  template: EventTemplate;
  /** Custom Time's starting value (ISO); default now. The console passes the created event's ts. */
  initialTs?: string;
  /**
   * Called with the checked values. Omit it for a preview (Event Templates → test): only Cancel
   * is offered and nothing is written.
   */
  onSubmit?: (values: EventOptionsValues) => void | Promise<void>;
  onCancel: () => void;
  /** Disables the buttons, e.g. while the caller saves. */
  busy?: boolean;
}

const Required = () => (
  <span className="text-danger" aria-hidden="true">
    {' '}
    *
  </span>
);

function OptionControl({
  option,
  index,
  answer,
  error,
  onChange,
  idPrefix,
}: {
  option: EventTemplateOption;
  index: number;
  answer: OptionAnswer;
  error?: string;
  onChange: (answer: OptionAnswer) => void;
  idPrefix: string;
}) {
  const id = `${idPrefix}-option-${index}`;
  const required = option.event_option_required && option.event_option_type !== 'static text';
  const text = typeof answer === 'string' ? answer : '';
  const chosen = Array.isArray(answer) ? answer : [];
  const feedback = error && (
    <div className="invalid-feedback d-block" id={`${id}-error`}>
      {error}
    </div>
  );

  switch (option.event_option_type) {
    case 'static text':
    case 'text':
    case 'dropdown':
      return (
        <Form.Group className="mb-3" controlId={id}>
          <FieldLabel required={required}>{option.event_option_name}</FieldLabel>
          {option.event_option_type === 'dropdown' ? (
            <Form.Select
              value={text}
              isInvalid={!!error}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onChange(e.target.value)}
            >
              <option value="" />
              {option.event_option_values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </Form.Select>
          ) : (
            <Form.Control
              type="text"
              value={text}
              disabled={option.event_option_type === 'static text'}
              isInvalid={!!error}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onChange(e.target.value)}
            />
          )}
          {feedback}
        </Form.Group>
      );
    case 'checkboxes':
    case 'radio buttons': {
      const radio = option.event_option_type === 'radio buttons';
      const labelId = `${id}-label`;
      return (
        <div
          className="mb-3"
          role="group"
          aria-labelledby={labelId}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <div className="form-label mb-1" id={labelId}>
            {option.event_option_name}
            {required && <Required />}
          </div>
          <div>
            {option.event_option_values.map((v, j) => {
              const checked = radio ? text === v : chosen.includes(v);
              return (
                <Form.Check
                  key={v}
                  inline
                  type={radio ? 'radio' : 'checkbox'}
                  id={`${id}-${j}`}
                  name={id}
                  value={v}
                  checked={checked}
                  isInvalid={!!error}
                  label={<span className={checked ? 'text-selected' : undefined}>{v}</span>}
                  onChange={(e) => {
                    if (radio) onChange(v);
                    else onChange(e.target.checked ? [...chosen, v] : chosen.filter((c) => c !== v));
                  }}
                />
              );
            })}
          </div>
          {feedback}
        </div>
      );
    }
  }
}

/**
 * The options form of the logging console's modal (client-behaviour §7.2), prop-driven so both the
 * console and the template preview use it: a template in, the checked values out. One field per
 * option in template order, Additional Text, Custom Time (UTC), then Cancel / Submit. The state
 * starts from the template's defaults when mounted: key it by template (and event) to start afresh.
 */
export function EventOptionsForm({ template, initialTs, onSubmit, onCancel, busy = false }: EventOptionsFormProps) {
  const idPrefix = useId().replace(/:/g, '');
  const [state, setState] = useState<EventOptionsState>(() => initialEventOptionsState(template, initialTs));
  const [tried, setTried] = useState(false);

  const errors: EventOptionsErrors = tried ? validateEventOptions(template, state) : {};

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!onSubmit) return;
    setTried(true);
    const values = eventOptionsValues(template, state);
    if (values) await onSubmit(values);
  };

  const setAnswer = (i: number, answer: OptionAnswer) =>
    setState((s) => ({ ...s, answers: s.answers.map((a, j) => (j === i ? answer : a)) }));

  return (
    <Form noValidate onSubmit={(e) => void submit(e)} aria-label={template.event_value}>
      {template.event_options.map((option, i) => (
        <OptionControl
          key={`${i}-${option.event_option_name}`}
          option={option}
          index={i}
          answer={state.answers[i] ?? ''}
          error={errors[`option-${i}`]}
          onChange={(a) => setAnswer(i, a)}
          idPrefix={idPrefix}
        />
      ))}
      <Form.Group className="mb-3" controlId={`${idPrefix}-free-text`}>
        <FieldLabel required={template.event_free_text_required}>Additional Text</FieldLabel>
        <Form.Control
          as="textarea"
          rows={2}
          value={state.freeText}
          isInvalid={!!errors.freeText}
          aria-describedby={errors.freeText ? `${idPrefix}-free-text-feedback` : undefined}
          onChange={(e) => setState((s) => ({ ...s, freeText: e.target.value }))}
        />
        <Form.Control.Feedback type="invalid" id={`${idPrefix}-free-text-feedback`}>
          {errors.freeText}
        </Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId={`${idPrefix}-time`}>
        <FieldLabel required>Custom Time (UTC)</FieldLabel>
        <Form.Control
          type="text"
          placeholder={customTimeFormat}
          value={state.time}
          isInvalid={!!errors.time}
          aria-describedby={errors.time ? `${idPrefix}-time-feedback` : undefined}
          onChange={(e) => setState((s) => ({ ...s, time: e.target.value }))}
        />
        <Form.Control.Feedback type="invalid" id={`${idPrefix}-time-feedback`}>
          {errors.time}
        </Form.Control.Feedback>
      </Form.Group>
      <div className="d-flex justify-content-end gap-2 border-top pt-3">
        <Button variant="secondary" size="sm" type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        {onSubmit && (
          <Button variant="primary" size="sm" type="submit" disabled={busy}>
            Submit
          </Button>
        )}
      </div>
    </Form>
  );
}

export interface EventOptionsModalProps extends EventOptionsFormProps {
  show: boolean;
}

/**
 * The options modal: titled with the template's event value. The ×, Escape and a backdrop click
 * all cancel (the console deletes its bare event then).
 */
export function EventOptionsModal({ show, ...form }: EventOptionsModalProps) {
  return (
    <Modal show={show} onHide={form.onCancel} centered aria-labelledby="event-options-title">
      <Modal.Header closeButton closeVariant="white">
        <Modal.Title id="event-options-title" as="h5">
          {form.template.event_value}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <EventOptionsForm key={`${form.template.id}-${form.initialTs ?? ''}`} {...form} />
      </Modal.Body>
    </Modal>
  );
}

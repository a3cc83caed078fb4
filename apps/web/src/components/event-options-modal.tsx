import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Form, Modal } from 'react-bootstrap';
import { ModalFooter, ModalHeader } from './modal-parts';
import {
  buildEventOptionsUpdate,
  clearHiddenOptions,
  customTimeFormat,
  initialEventOptionsValues,
  optionVisibility,
  validateEventOptions,
  type EventOptionFieldValue,
  type EventOptionsFormValues,
  type EventOptionsUpdate,
  type EventTemplate,
  type EventTemplateOption,
} from '@bathylog/shared';
import { AttachPictures } from './attach-pictures';
import { DateTimeInput } from './date-time-input';
import { FieldLabel, RequiredMark } from './form-field';

/** The taxon picker is its own chunk: only templates with a taxon option load it. */
const TaxonPicker = lazy(() => import('./taxon-picker'));

export interface EventOptionsModalProps {
  /** The template clicked; null hides the modal. */
  template: EventTemplate | null;
  /** The created event's time: the Custom Time starts there, since that is what is stored if left alone. */
  eventTs: number;
  /** Called with a valid update and the pictures to attach; the modal closes itself through the parent. */
  onSubmit?: (update: EventOptionsUpdate, pictures: File[]) => void;
  /** Checks chosen pictures (type, count): the reason they cannot be sent, or null. Omitted: no picker. */
  checkPictures?: (pictures: readonly File[]) => string | null;
  /** Cancel, ×, Escape and a backdrop click. */
  onCancel: () => void;
  /** The template editor's test preview: only Cancel, nothing written. */
  preview?: boolean;
}

function OptionField({
  option,
  index,
  value,
  error,
  onChange,
}: {
  option: EventTemplateOption;
  index: number;
  value: EventOptionFieldValue | undefined;
  error: string | undefined;
  onChange: (value: EventOptionFieldValue) => void;
}) {
  const id = `event-option-${index}`;
  const required = option.event_option_required;
  const label = (
    <FieldLabel small required={required}>
      {option.event_option_name}
    </FieldLabel>
  );
  const legend = (
    <legend className="form-label mb-0 small fs-6">
      {option.event_option_name}
      {required && <RequiredMark small />}
    </legend>
  );
  const invalid = !!error;
  const feedback = error && (
    <Form.Control.Feedback type="invalid" className="d-block">
      {error}
    </Form.Control.Feedback>
  );
  // Check-boxes and radio buttons: one inline choice per value, the chosen ones highlighted.
  const choices = (
    type: 'checkbox' | 'radio',
    isChosen: (v: string) => boolean,
    choose: (v: string, checked: boolean) => void,
  ) => (
    <fieldset className="mb-2">
      {legend}
      <div>
        {option.event_option_values.map((v, j) => (
          <Form.Check
            inline
            key={v}
            type={type}
            name={type === 'radio' ? id : undefined}
            id={`${id}-${j}`}
            label={v}
            checked={isChosen(v)}
            isInvalid={invalid}
            className={isChosen(v) ? 'text-selected' : undefined}
            onChange={(e) => choose(v, e.target.checked)}
          />
        ))}
      </div>
      {feedback}
    </fieldset>
  );
  switch (option.event_option_type) {
    case 'static text':
    case 'text':
      return (
        <Form.Group className="mb-2" controlId={id}>
          {label}
          <Form.Control
            size="sm"
            type="text"
            value={typeof value === 'string' ? value : ''}
            disabled={option.event_option_type === 'static text'}
            isInvalid={invalid}
            onChange={(e) => onChange(e.target.value)}
          />
          {feedback}
        </Form.Group>
      );
    case 'dropdown':
      return (
        <Form.Group className="mb-2" controlId={id}>
          {label}
          <Form.Select
            size="sm"
            value={typeof value === 'string' ? value : ''}
            isInvalid={invalid}
            onChange={(e) => onChange(e.target.value)}
          >
            <option value="" />
            {option.event_option_values.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </Form.Select>
          {feedback}
        </Form.Group>
      );
    case 'checkboxes': {
      const chosen = Array.isArray(value) ? value : [];
      return choices(
        'checkbox',
        (v) => chosen.includes(v),
        (v, checked) => onChange(checked ? [...chosen, v] : chosen.filter((c) => c !== v)),
      );
    }
    case 'radio buttons':
      return choices(
        'radio',
        (v) => value === v,
        (v) => onChange(v),
      );
    case 'taxon':
      return (
        <Suspense fallback={<div className="small text-muted mb-2">Loading the taxon picker…</div>}>
          <TaxonPicker
            option={option}
            id={id}
            value={typeof value === 'string' ? value : ''}
            invalid={invalid}
            onChange={onChange}
          />
          {error && (
            <div id={`${id}-feedback`} className="invalid-feedback d-block mb-2">
              {error}
            </div>
          )}
        </Suspense>
      );
    default:
      return null;
  }
}

function OptionsForm({
  template,
  eventTs,
  onSubmit,
  onCancel,
  preview,
  checkPictures,
}: EventOptionsModalProps & { template: EventTemplate }) {
  const [values, setValues] = useState<EventOptionsFormValues>(() => initialEventOptionsValues(template, eventTs));
  const [pictures, setPictures] = useState<File[]>([]);
  const pictureError = checkPictures?.(pictures) ?? null;
  const [tried, setTried] = useState(0);
  const errors = tried ? validateEventOptions(template, values) : null;
  const formRef = useRef<HTMLFormElement>(null);

  // A refused submit brings the first field to fix into view (long templates scroll).
  useEffect(() => {
    if (!tried) return;
    const first = formRef.current?.querySelector<HTMLElement>('.is-invalid');
    first?.focus();
    first?.scrollIntoView({ block: 'center' });
  }, [tried]);

  // Visibility rules apply live: an option hidden by another's value is emptied and not required.
  const visible = optionVisibility(template, values.options);
  const setOption = (i: number, value: EventOptionFieldValue) =>
    setValues((v) => clearHiddenOptions(template, { ...v, options: v.options.map((o, j) => (j === i ? value : o)) }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = validateEventOptions(template, values);
    if (invalid || preview || pictureError) {
      setTried((n) => n + 1);
      return;
    }
    onSubmit?.(buildEventOptionsUpdate(template, values, eventTs), pictures);
  };

  return (
    // Inside a scrollable modal the form must pass the flex layout on, so only the body scrolls
    // and Submit stays in view for templates with many options.
    <Form
      ref={formRef}
      noValidate
      onSubmit={submit}
      className="d-flex flex-column"
      style={{ minHeight: 0, flex: '1 1 auto' }}
    >
      <Modal.Body>
        {template.event_options.map((option, i) =>
          !visible[i] ? null : (
            <OptionField
              key={`${option.event_option_name}-${i}`}
              option={option}
              index={i}
              value={values.options[i]}
              error={errors?.options[i]}
              onChange={(value) => setOption(i, value)}
            />
          ),
        )}
        <Form.Group className="mb-2" controlId="event-options-free-text">
          <FieldLabel small required={template.event_free_text_required}>
            Additional Text
          </FieldLabel>
          <Form.Control
            as="textarea"
            rows={2}
            size="sm"
            value={values.freeText}
            isInvalid={!!errors?.freeText}
            onChange={(e) => setValues((v) => ({ ...v, freeText: e.target.value }))}
          />
          <Form.Control.Feedback type="invalid">{errors?.freeText}</Form.Control.Feedback>
        </Form.Group>
        <Form.Group className="mb-2" controlId="event-options-custom-time">
          <FieldLabel small required>
            Custom Time (UTC)
          </FieldLabel>
          <DateTimeInput
            size="sm"
            placeholder={customTimeFormat}
            value={values.customTime}
            isInvalid={!!errors?.customTime}
            onChange={(e) => setValues((v) => ({ ...v, customTime: e.target.value }))}
            feedback={<Form.Control.Feedback type="invalid">{errors?.customTime}</Form.Control.Feedback>}
          />
        </Form.Group>
        {!preview && checkPictures && <AttachPictures files={pictures} onChange={setPictures} error={pictureError} />}
      </Modal.Body>
      <ModalFooter onClose={onCancel} closeLabel="Cancel" action={preview ? undefined : { label: 'Submit' }} />
    </Form>
  );
}

/**
 * The event options modal (docs/screens.md#event-options-modal): one field per option in template order, then
 * Additional Text and Custom Time (UTC). Titled with the template's event value. The logging
 * console submits it; the template editor's Test shows it as a `preview`.
 */
export function EventOptionsModal(props: EventOptionsModalProps) {
  const { template, onCancel } = props;
  return (
    <Modal show={!!template} onHide={onCancel} scrollable aria-labelledby="event-options-title">
      <ModalHeader id="event-options-title">{template?.event_value}</ModalHeader>
      {template && <OptionsForm key={`${template.id}-${props.eventTs}`} {...props} template={template} />}
    </Modal>
  );
}

import { memo, useEffect, useState } from 'react';
import { Button, Card, Col, Form, Row } from 'react-bootstrap';
import {
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  buttonTextColor,
  buttonVariantOf,
  buttonVariants,
  emptyTemplateOption,
  eventOptionTypes,
  normalizeHexColor,
  optionVisibilityModes,
  eventTemplateFormSchema,
  templateFromForm,
  templateToForm,
  type EventOptionType,
  type EventTemplate,
  type EventTemplateFormValues,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { createEventTemplate, updateEventTemplate } from '../../api/event-templates';
import { FormActions } from '../../components/form-actions';
import { describedBy, FieldLabel, TextField } from '../../components/form-field';

/** The values textarea's label per choice type (client-behaviour §13). */
const valuesLabel: Partial<Record<EventOptionType, string>> = {
  dropdown: 'Dropdown Options',
  checkboxes: 'Checkbox Options',
  'radio buttons': 'Radio Button Options',
};

/** True when the form is exactly a new, untouched template. */
export function isBlankTemplateForm(values: EventTemplateFormValues): boolean {
  return JSON.stringify(values) === JSON.stringify(templateToForm());
}

/** Option names joined by this (never in a name), so the memoised fields compare one string. */
const nameSeparator = '\u0000';

/** One option's fields; memoised, as the whole form re-renders on every keystroke. */
const OptionFields = memo(function OptionFields({
  index,
  count,
  optionNames,
  control,
  register,
  errors,
  onMove,
  onRemove,
}: {
  index: number;
  count: number;
  /** Every option's name in form order, joined by `nameSeparator` (the visibility rule names another). */
  optionNames: string;
  control: Control<EventTemplateFormValues>;
  register: UseFormRegister<EventTemplateFormValues>;
  errors: FieldErrors<EventTemplateFormValues>;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}) {
  const type = useWatch({ control, name: `event_options.${index}.event_option_type` });
  const visibilityMode = useWatch({ control, name: `event_options.${index}.visibility_mode` });
  const otherNames = optionNames.split(nameSeparator).filter((name, j) => j !== index && name.trim() !== '');
  const optionErrors = errors.event_options?.[index];
  const id = (field: string) => `template-option-${index}-${field}`;
  const n = index + 1;
  const choiceLabel = type ? valuesLabel[type] : undefined;

  return (
    <fieldset className="border rounded p-2 mb-3" aria-label={`Option #${n}`} data-testid={`template-option-${index}`}>
      <div className="d-flex align-items-center mb-2">
        <span className="fw-semibold me-auto">Option #{n}</span>
        <button
          type="button"
          className="btn btn-link p-0 ms-2 lh-1"
          aria-label={`Move option #${n} up`}
          title="Move up"
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
        >
          <i className="bi bi-chevron-up" aria-hidden="true" />
        </button>
        <button
          type="button"
          className="btn btn-link p-0 ms-2 lh-1"
          aria-label={`Move option #${n} down`}
          title="Move down"
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
        >
          <i className="bi bi-chevron-down" aria-hidden="true" />
        </button>
        <button
          type="button"
          className="btn btn-link p-0 ms-2 lh-1 text-danger"
          aria-label={`Remove option #${n}`}
          title="Remove option"
          onClick={() => onRemove(index)}
        >
          <i className="bi bi-x-lg" aria-hidden="true" />
        </button>
      </div>
      <Row>
        <Col sm={6}>
          <Form.Group className="mb-2" controlId={id('name')}>
            <FieldLabel required>Name</FieldLabel>
            <Form.Control
              type="text"
              size="sm"
              isInvalid={!!optionErrors?.event_option_name}
              {...describedBy(id('name'), optionErrors?.event_option_name?.message)}
              {...register(`event_options.${index}.event_option_name`)}
            />
            <Form.Control.Feedback type="invalid" id={`${id('name')}-feedback`}>
              {optionErrors?.event_option_name?.message}
            </Form.Control.Feedback>
          </Form.Group>
        </Col>
        <Col sm={6}>
          <Form.Group className="mb-2" controlId={id('type')}>
            <FieldLabel required>Type</FieldLabel>
            <Form.Select
              size="sm"
              isInvalid={!!optionErrors?.event_option_type}
              {...describedBy(id('type'), optionErrors?.event_option_type?.message)}
              {...register(`event_options.${index}.event_option_type`)}
            >
              <option value="" />
              {eventOptionTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </Form.Select>
            <Form.Control.Feedback type="invalid" id={`${id('type')}-feedback`}>
              {optionErrors?.event_option_type?.message}
            </Form.Control.Feedback>
          </Form.Group>
        </Col>
      </Row>
      {type === 'static text' && (
        <Form.Group className="mb-2" controlId={id('default')}>
          <FieldLabel required>Value</FieldLabel>
          <Form.Control
            type="text"
            size="sm"
            isInvalid={!!optionErrors?.event_option_default_value}
            {...describedBy(id('default'), optionErrors?.event_option_default_value?.message)}
            {...register(`event_options.${index}.event_option_default_value`)}
          />
          <Form.Control.Feedback type="invalid" id={`${id('default')}-feedback`}>
            {optionErrors?.event_option_default_value?.message}
          </Form.Control.Feedback>
        </Form.Group>
      )}
      {type === 'text' && (
        <Form.Group className="mb-2" controlId={id('default')}>
          <FieldLabel>Default Value</FieldLabel>
          <Form.Control
            type="text"
            size="sm"
            isInvalid={!!optionErrors?.event_option_default_value}
            {...describedBy(id('default'), optionErrors?.event_option_default_value?.message)}
            {...register(`event_options.${index}.event_option_default_value`)}
          />
          <Form.Control.Feedback type="invalid" id={`${id('default')}-feedback`}>
            {optionErrors?.event_option_default_value?.message}
          </Form.Control.Feedback>
        </Form.Group>
      )}
      {choiceLabel && (
        <>
          <Form.Group className="mb-2" controlId={id('values')}>
            <FieldLabel required>{choiceLabel}</FieldLabel>
            <Form.Control
              as="textarea"
              rows={2}
              size="sm"
              placeholder="comma delimited, i.e. value1,value2"
              isInvalid={!!optionErrors?.event_option_values}
              {...describedBy(id('values'), optionErrors?.event_option_values?.message)}
              {...register(`event_options.${index}.event_option_values`)}
            />
            <Form.Control.Feedback type="invalid" id={`${id('values')}-feedback`}>
              {optionErrors?.event_option_values?.message}
            </Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-2" controlId={id('default')}>
            <FieldLabel>{type === 'checkboxes' ? 'Default Selection(s)' : 'Default Selection'}</FieldLabel>
            <Form.Control
              type="text"
              size="sm"
              isInvalid={!!optionErrors?.event_option_default_value}
              {...describedBy(id('default'), optionErrors?.event_option_default_value?.message)}
              {...register(`event_options.${index}.event_option_default_value`)}
            />
            <Form.Control.Feedback type="invalid" id={`${id('default')}-feedback`}>
              {optionErrors?.event_option_default_value?.message}
            </Form.Control.Feedback>
          </Form.Group>
        </>
      )}
      {type && type !== 'static text' && (
        <Form.Check
          type="switch"
          id={id('required')}
          label="Required?"
          {...register(`event_options.${index}.event_option_required`)}
        />
      )}
      <Row className="mt-2">
        <Col sm={4}>
          <Form.Group className="mb-2" controlId={id('visibility')}>
            <FieldLabel>Visibility</FieldLabel>
            <Form.Select size="sm" {...register(`event_options.${index}.visibility_mode`)}>
              <option value="">always shown</option>
              {optionVisibilityModes.map((mode) => (
                <option key={mode} value={mode}>
                  {mode}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        {visibilityMode && (
          <>
            <Col sm={4}>
              <Form.Group className="mb-2" controlId={id('visibility-option')}>
                <FieldLabel required>Option</FieldLabel>
                <Form.Select
                  size="sm"
                  isInvalid={!!optionErrors?.visibility_option}
                  {...describedBy(id('visibility-option'), optionErrors?.visibility_option?.message)}
                  {...register(`event_options.${index}.visibility_option`)}
                >
                  <option value="" />
                  {otherNames.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </Form.Select>
                <Form.Control.Feedback type="invalid" id={`${id('visibility-option')}-feedback`}>
                  {optionErrors?.visibility_option?.message}
                </Form.Control.Feedback>
              </Form.Group>
            </Col>
            <Col sm={4}>
              <Form.Group className="mb-2" controlId={id('visibility-values')}>
                <FieldLabel required>Values</FieldLabel>
                <Form.Control
                  type="text"
                  size="sm"
                  placeholder="value1,value2"
                  isInvalid={!!optionErrors?.visibility_values}
                  {...describedBy(id('visibility-values'), optionErrors?.visibility_values?.message)}
                  {...register(`event_options.${index}.visibility_values`)}
                />
                <Form.Control.Feedback type="invalid" id={`${id('visibility-values')}-feedback`}>
                  {optionErrors?.visibility_values?.message}
                </Form.Control.Feedback>
              </Form.Group>
            </Col>
          </>
        )}
      </Row>
    </fieldset>
  );
});

/** The style choice's value for a custom (hex) colour; never a stored value. */
const customStyle = 'custom';

/**
 * The button colour: a Bootstrap style (as the Sealog 2.4.17 clients store it) or a custom hex
 * colour typed or picked, and the button as the console will show it. Only one of the eight
 * variant names or a normalised hex reaches the preview's class or style.
 */
function ButtonColorField({
  control,
  register,
  setValue,
  error,
}: {
  control: Control<EventTemplateFormValues>;
  register: UseFormRegister<EventTemplateFormValues>;
  setValue: UseFormSetValue<EventTemplateFormValues>;
  error: string | undefined;
}) {
  const color = useWatch({ control, name: 'event_button_color' });
  const name = useWatch({ control, name: 'event_name' });
  const hex = normalizeHexColor(color ?? '');
  const variant = buttonVariantOf(color?.trim());
  const style = variant ?? (color?.trim() ? customStyle : '');
  const set = (value: string) => setValue('event_button_color', value, { shouldDirty: true, shouldValidate: true });
  const choose = (value: string) => set(value === customStyle ? (hex ?? '#2a9fd6') : value);
  return (
    <Form.Group className="mb-3" controlId="template-form-button-color">
      <FieldLabel>Button Colour</FieldLabel>
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Form.Select
          size="sm"
          style={{ maxWidth: '12rem' }}
          aria-label="Button style"
          value={style}
          onChange={(e) => choose(e.target.value)}
        >
          <option value="">Default</option>
          {buttonVariants.map((v) => (
            <option key={v} value={v}>
              {v[0]!.toUpperCase() + v.slice(1)}
            </option>
          ))}
          <option value={customStyle}>Custom colour</option>
        </Form.Select>
        <Form.Control
          type="color"
          size="sm"
          className="form-control-color flex-shrink-0"
          aria-label="Pick the button colour"
          value={hex ?? '#2a9fd6'}
          onChange={(e) => set(e.target.value)}
        />
        <Form.Control
          type="text"
          size="sm"
          placeholder="default, or #rrggbb"
          style={{ maxWidth: '10rem' }}
          isInvalid={!!error}
          {...describedBy('template-form-button-color', error)}
          {...register('event_button_color')}
        />
        <span className="small ms-auto">Preview</span>
        <Button
          size="sm"
          variant={hex ? undefined : (variant ?? 'primary')}
          tabIndex={-1}
          data-testid="template-button-preview"
          style={hex ? { backgroundColor: hex, borderColor: hex, color: buttonTextColor(hex) } : undefined}
        >
          {name?.trim() || 'Button'}
        </Button>
      </div>
      <Form.Control.Feedback
        type="invalid"
        id="template-form-button-color-feedback"
        className={error ? 'd-block' : undefined}
      >
        {error}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

export interface EventTemplateFormProps {
  /** The template being edited; null = add mode. */
  template: EventTemplate | null;
  isAdmin: boolean;
  /** After a successful save: refresh the list. */
  onSaved: (saved: { id: string; created: boolean }) => void | Promise<void>;
  /** Reports whether the form is a blank new template (Add Event Template is disabled then). */
  onBlankChange?: (blank: boolean) => void;
}

/**
 * The template form on the right of /event_templates (seed 000 §4-5, client-behaviour §13). Mount
 * it with `key={template?.id ?? 'new'}` so another template starts a fresh form.
 */
export function EventTemplateForm({ template, isAdmin, onSaved, onBlankChange }: EventTemplateFormProps) {
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const initial = templateToForm(template ?? undefined);
  const {
    register,
    handleSubmit,
    reset,
    control,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<EventTemplateFormValues>({ resolver: zodResolver(eventTemplateFormSchema), defaultValues: initial });
  const { fields, append, remove, move } = useFieldArray({ control, name: 'event_options' });

  const values = useWatch({ control }) as EventTemplateFormValues;
  const systemTemplate = useWatch({ control, name: 'system_template' });
  const blank = !template && isBlankTemplateForm({ ...templateToForm(), ...values });
  useEffect(() => {
    onBlankChange?.(blank);
  }, [blank, onBlankChange]);

  const onSubmit = handleSubmit(async (form) => {
    setError('');
    setMessage('');
    const body = templateFromForm(form);
    try {
      if (template) {
        // An emptied colour field clears the stored colour.
        await updateEventTemplate(template.id, { ...body, event_button_color: body.event_button_color ?? null });
        setMessage('Event Template updated');
        const { event_button_color: color, ...saved } = body;
        const next: EventTemplate = { ...template, ...saved };
        if (color) next.event_button_color = color;
        else delete next.event_button_color;
        reset(templateToForm(next));
        await onSaved({ id: template.id, created: false });
      } else {
        const id = await createEventTemplate(body);
        setMessage('Event Template created');
        reset(templateToForm());
        await onSaved({ id, created: true });
      }
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  const title = template ? 'Update Event Template' : 'Add Event Template';

  return (
    <Card>
      <Card.Header as="h2" className="h6 mb-0 py-2">
        {title}
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={onSubmit} aria-label={title}>
          <Row>
            <Col sm={6}>
              <TextField
                label="Button Name"
                required
                idPrefix="template-form"
                registration={register('event_name')}
                error={errors.event_name}
              />
            </Col>
            <Col sm={6}>
              <TextField
                label="Event Value"
                required
                idPrefix="template-form"
                registration={register('event_value')}
                error={errors.event_value}
              />
            </Col>
          </Row>
          <TextField
            label="Template Categories (comma delimited)"
            placeholder="i.e. biology,geology"
            idPrefix="template-form"
            registration={register('template_categories')}
            error={errors.template_categories}
          />
          <ButtonColorField
            control={control}
            register={register}
            setValue={setValue}
            error={errors.event_button_color?.message}
          />
          <Row className="mb-2">
            <Col sm={6}>
              <Form.Check
                type="switch"
                id="template-form-free-text"
                label="Free text Required?"
                {...register('event_free_text_required')}
              />
              {isAdmin && (
                <Form.Check
                  type="switch"
                  id="template-form-system"
                  label="System template"
                  {...register('system_template')}
                />
              )}
              {isAdmin && systemTemplate && (
                <Form.Check
                  type="switch"
                  id="template-form-admin-only"
                  label="Only available to admins"
                  {...register('admin_only')}
                />
              )}
            </Col>
            {isAdmin && (
              <Col sm={6}>
                <Form.Check
                  type="switch"
                  id="template-form-disabled"
                  label="Disable template"
                  {...register('disabled')}
                />
              </Col>
            )}
          </Row>
          {fields.map((field, index) => (
            <OptionFields
              key={field.id}
              index={index}
              count={fields.length}
              optionNames={(values.event_options ?? []).map((o) => o?.event_option_name ?? '').join(nameSeparator)}
              control={control}
              register={register}
              errors={errors}
              onMove={move}
              onRemove={remove}
            />
          ))}
          <Button
            variant="link"
            className="px-0 mb-3 text-decoration-none"
            type="button"
            onClick={() => append(emptyTemplateOption())}
          >
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Add Option
          </Button>
          <FormActions
            error={error}
            message={message}
            onCloseError={() => setError('')}
            onCloseMessage={() => setMessage('')}
            resetLabel="Reset Form"
            dirty={isDirty}
            submitting={isSubmitting}
            onReset={() => {
              reset(initial);
              setError('');
              setMessage('');
            }}
            submitLabel={template ? 'Update' : 'Add'}
            editing={!!template}
          />
        </Form>
      </Card.Body>
    </Card>
  );
}

import { memo, useEffect } from 'react';
import { Button, Col, Form, Row } from 'react-bootstrap';
import {
  useFieldArray,
  useForm,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormRegister,
  type UseFormSetValue,
} from '../../lib/form';
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
import { createEventTemplate, updateEventTemplate } from '../../api/event-templates';
import { FormActions, useFormAlerts } from '../../components/form-actions';
import { FormCard } from '../../components/record-form';
import { describedBy, FieldLabel, SelectField, TextField } from '../../components/form-field';

/** The values textarea's label per choice type, in the words users know (docs/screens.md#template-form). */
const valuesLabel: Partial<Record<EventOptionType, string>> = {
  dropdown: 'Dropdown Options',
  checkboxes: 'Checkbox Options',
  'radio buttons': 'Radio Button Options',
};

/** A taxon option asks for a count, an abundance bin, or no quantity (docs/taxa.md#the-template-option). */
const taxonQuantities = ['count', 'abundance', 'none'] as const;

/** True when the form is exactly a new, untouched template. */
export function isBlankTemplateForm(values: EventTemplateFormValues): boolean {
  return JSON.stringify(values) === JSON.stringify(templateToForm());
}

type OptionFieldName = keyof EventTemplateFormValues['event_options'][number];

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
  const taxonQuantity = useWatch({ control, name: `event_options.${index}.taxon_quantity` });
  const otherNames = optionNames.split(nameSeparator).filter((name, j) => j !== index && name.trim() !== '');
  const optionErrors = errors.event_options?.[index];
  const id = (field: string) => `template-option-${index}-${field}`;
  /** The id, registration and message of one of this option's fields, in the compact look. */
  const field = (idSuffix: string, name: OptionFieldName) => ({
    id: id(idSuffix),
    registration: register(`event_options.${index}.${name}`),
    error: optionErrors?.[name],
    size: 'sm' as const,
    className: 'mb-2',
  });
  const n = index + 1;
  // Move up, move down, remove: in this order, the option's own tab stops before its fields.
  const tools = [
    {
      icon: 'bi-chevron-up',
      label: `Move option #${n} up`,
      title: 'Move up',
      disabled: index === 0,
      onClick: () => onMove(index, index - 1),
    },
    {
      icon: 'bi-chevron-down',
      label: `Move option #${n} down`,
      title: 'Move down',
      disabled: index === count - 1,
      onClick: () => onMove(index, index + 1),
    },
    {
      icon: 'bi-x-lg',
      label: `Remove option #${n}`,
      title: 'Remove option',
      onClick: () => onRemove(index),
      danger: true,
    },
  ];
  const choiceLabel = type ? valuesLabel[type] : undefined;

  return (
    <fieldset className="border rounded p-2 mb-3" aria-label={`Option #${n}`} data-testid={`template-option-${index}`}>
      <div className="d-flex align-items-center mb-2">
        <span className="fw-semibold me-auto">Option #{n}</span>
        {tools.map((tool) => (
          <button
            key={tool.icon}
            type="button"
            className={`btn btn-link p-0 ms-2 lh-1${tool.danger ? ' text-danger' : ''}`}
            aria-label={tool.label}
            title={tool.title}
            disabled={tool.disabled}
            onClick={tool.onClick}
          >
            <i className={`bi ${tool.icon}`} aria-hidden="true" />
          </button>
        ))}
      </div>
      <Row>
        <Col sm={6}>
          <TextField {...field('name', 'event_option_name')} label="Name" required />
        </Col>
        <Col sm={6}>
          <SelectField
            {...field('type', 'event_option_type')}
            label="Type"
            required
            options={eventOptionTypes}
            blank=""
          />
        </Col>
      </Row>
      {type === 'static text' && (
        <TextField {...field('default', 'event_option_default_value')} label="Value" required />
      )}
      {type === 'text' && <TextField {...field('default', 'event_option_default_value')} label="Default Value" />}
      {choiceLabel && (
        <>
          <TextField
            {...field('values', 'event_option_values')}
            label={choiceLabel}
            required
            rows={2}
            placeholder="comma delimited, i.e. value1,value2"
          />
          <TextField
            {...field('default', 'event_option_default_value')}
            label={type === 'checkboxes' ? 'Default Selection(s)' : 'Default Selection'}
          />
        </>
      )}
      {type === 'taxon' && (
        <>
          <SelectField
            {...field('taxon-quantity', 'taxon_quantity')}
            label="Quantity"
            required
            options={taxonQuantities}
            blank=""
          />
          {taxonQuantity === 'abundance' && (
            <TextField
              {...field('values', 'event_option_values')}
              label="Abundance Bins"
              required
              rows={2}
              placeholder="comma delimited, i.e. Few (<10),Many (10-100)"
            />
          )}
          <TextField
            {...field('taxon-common', 'taxon_common')}
            label="Common Taxa Buttons"
            rows={2}
            placeholder="Name (AphiaID), comma delimited, i.e. Ophiuroidea (123084)"
          />
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
          <SelectField
            {...field('visibility', 'visibility_mode')}
            error={undefined}
            label="Visibility"
            options={optionVisibilityModes}
            blank="always shown"
          />
        </Col>
        {visibilityMode && (
          <>
            <Col sm={4}>
              <SelectField
                {...field('visibility-option', 'visibility_option')}
                label="Option"
                required
                options={otherNames}
                blank=""
              />
            </Col>
            <Col sm={4}>
              <TextField
                {...field('visibility-values', 'visibility_values')}
                label="Values"
                required
                placeholder="value1,value2"
              />
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
          // Room for the whole placeholder, in wider fonts too.
          style={{ maxWidth: '12rem', minWidth: '10rem' }}
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
 * The template form on the right of /event_templates (docs/screens.md#template-form). Mount
 * it with `key={template?.id ?? 'new'}` so another template starts a fresh form.
 */
export function EventTemplateForm({ template, isAdmin, onSaved, onBlankChange }: EventTemplateFormProps) {
  const alerts = useFormAlerts();
  const initial = templateToForm(template ?? undefined);
  const {
    register,
    handleSubmit,
    reset,
    control,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<EventTemplateFormValues>({ schema: eventTemplateFormSchema, defaultValues: initial });
  const { fields, append, remove, move } = useFieldArray({ control, name: 'event_options' });

  const values = useWatch({ control }) as EventTemplateFormValues;
  const systemTemplate = useWatch({ control, name: 'system_template' });
  const blank = !template && isBlankTemplateForm({ ...templateToForm(), ...values });
  useEffect(() => {
    onBlankChange?.(blank);
  }, [blank, onBlankChange]);

  const onSubmit = alerts.submit(
    handleSubmit((form) => {
      const body = templateFromForm(form);
      return alerts.save(async () => {
        if (template) {
          // An emptied colour field clears the stored colour.
          await updateEventTemplate(template.id, { ...body, event_button_color: body.event_button_color ?? null });
          alerts.setMessage('Event Template updated');
          const { event_button_color: color, ...saved } = body;
          const next: EventTemplate = { ...template, ...saved };
          if (color) next.event_button_color = color;
          else delete next.event_button_color;
          reset(templateToForm(next));
          await onSaved({ id: template.id, created: false });
        } else {
          const id = await createEventTemplate(body);
          alerts.setMessage('Event Template created');
          reset(templateToForm());
          await onSaved({ id, created: true });
        }
      });
    }),
  );

  const title = template ? 'Update Event Template' : 'Add Event Template';

  return (
    <FormCard title={title} onSubmit={onSubmit}>
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
      {/* The switches side by side only where their labels fit on one line. */}
      <Row className="mb-2">
        <Col lg={6}>
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
          <Col lg={6}>
            <Form.Check type="switch" id="template-form-disabled" label="Disable template" {...register('disabled')} />
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
        {...alerts}
        resetLabel="Reset Form"
        dirty={isDirty}
        submitting={isSubmitting}
        onReset={() => {
          reset(initial);
          alerts.clear();
        }}
        submitLabel={template ? 'Update' : 'Add'}
        editing={!!template}
      />
    </FormCard>
  );
}

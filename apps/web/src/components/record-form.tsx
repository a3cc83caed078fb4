import { Fragment, useState, type ReactNode } from 'react';
import { Card, Col, Form, Row } from 'react-bootstrap';
import {
  useForm,
  type FieldError,
  type FieldErrors,
  type FieldValues,
  type FormSchema,
  type Path,
  type UseFormRegister,
} from '../lib/form';
import { TextField, type TextFieldProps } from './form-field';
import { useFormAlerts } from './form-actions';

/**
 * The card of a management form: its heading (Add … / Update …), then the form named by it.
 * `tools` are buttons beside the heading (a record's Copy); a form that has such a place passes
 * it even while empty (add mode), a form without one omits it and gets the plain heading.
 */
export function FormCard({
  title,
  tools,
  onSubmit,
  children,
}: {
  title: string;
  tools?: ReactNode;
  onSubmit: (e?: React.BaseSyntheticEvent) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <Card>
      {tools === undefined ? (
        <Card.Header as="h2" className="h6 mb-0 py-2">
          {title}
        </Card.Header>
      ) : (
        <Card.Header as="h2" className="h6 mb-0 py-2 d-flex align-items-center">
          <span className="me-auto">{title}</span>
          {tools}
        </Card.Header>
      )}
      <Card.Body>
        <Form noValidate onSubmit={onSubmit} aria-label={title}>
          {children}
        </Form>
      </Card.Body>
    </Card>
  );
}

/** One text field of a form written as configuration. */
export interface FieldSpec<V extends FieldValues> extends Omit<
  TextFieldProps,
  'registration' | 'error' | 'idPrefix' | 'id' | 'disabled'
> {
  name: Path<V>;
  /** Half the width: two half fields in a row stand side by side from the large breakpoint up. */
  half?: boolean;
  /** Disabled while the form is locked (a cruise manager's edit of what only admins change). */
  lockable?: boolean;
}

/** Lays out configured fields in order, pairing consecutive half-width fields in a row. */
export function FormFields<V extends FieldValues>({
  specs,
  register,
  errors,
  idPrefix,
  locked = false,
}: {
  specs: readonly FieldSpec<V>[];
  register: UseFormRegister<V>;
  errors: FieldErrors<V>;
  idPrefix: string;
  locked?: boolean;
}) {
  const field = ({ name, half: _half, lockable, ...props }: FieldSpec<V>) => (
    <TextField
      {...props}
      idPrefix={idPrefix}
      registration={register(name)}
      error={(errors as Record<string, FieldError | undefined>)[name]}
      disabled={lockable && locked ? true : undefined}
    />
  );
  const out: ReactNode[] = [];
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const next = specs[i + 1];
    if (spec.half && next?.half) {
      out.push(
        <Row key={spec.name}>
          <Col lg={6}>{field(spec)}</Col>
          <Col lg={6}>{field(next)}</Col>
        </Row>,
      );
      i++;
    } else {
      out.push(<Fragment key={spec.name}>{field(spec)}</Fragment>);
    }
  }
  return <>{out}</>;
}

/**
 * The fields cruises and lowerings share: their ID (with the configured format's warning), the
 * start and stop (admins only once a cruise manager edits), the tags.
 */
export const recordFields = {
  id: <V extends FieldValues>(name: Path<V>, label: string, placeholder: string, warning?: string): FieldSpec<V> => ({
    name,
    label,
    required: true,
    placeholder,
    warning,
    lockable: true,
    half: true,
  }),
  /** Start and stop, side by side; `unit` "Date" (a cruise) or "Date/Time" (a lowering). */
  dates: <V extends FieldValues>(
    unit: string,
    placeholder: string,
    extra: Partial<FieldSpec<V>> = {},
  ): FieldSpec<V>[] =>
    (['Start', 'Stop'] as const).map((end) => ({
      ...extra,
      name: `${end.toLowerCase()}_ts` as Path<V>,
      label: `${end} ${unit} (UTC)`,
      required: true,
      placeholder,
      lockable: true,
      half: true,
      picker: unit === 'Date' ? ('date' as const) : ('datetime' as const),
      edge: end === 'Stop' ? ('end' as const) : ('start' as const),
    })),
  tags: <V extends FieldValues>(name: Path<V>, word: string): FieldSpec<V> => ({
    name,
    label: `${word} Tags, comma delimited`,
    rows: 2,
    placeholder: 'i.e. coral,chemistry,engineering',
  }),
};

export interface RecordFormOptions<V extends FieldValues> {
  /** The record's display name ("Cruise", "Dive" …): "{word} created", "{word} updated". */
  word: string;
  /** Update mode (a record is being edited). */
  editing: boolean;
  /** The values the form starts from. */
  initial: () => V;
  /** The values of a fresh add form, after a create. */
  blank: () => V;
  /** The form's rules (a zod schema): its messages, and the values a save takes. */
  schema: FormSchema<V>;
  create: (values: V) => Promise<unknown>;
  /** Saves the edited record with the files uploaded since. */
  update: (values: V, uploads: string[]) => Promise<unknown>;
  /** After a successful create or update: refresh the lists. */
  onSaved: () => Promise<unknown>;
}

/**
 * The state of a record form with files (cruise, lowering): the form, the last save's texts, the
 * files uploaded but not yet saved, and Reset Values, which drops those uploads too. After an
 * update the saved values are the new reset point; after a create the form starts blank.
 */
export function useRecordForm<V extends FieldValues>(options: RecordFormOptions<V>) {
  const { word, editing, blank, schema, create, update, onSaved } = options;
  const alerts = useFormAlerts();
  const [uploads, setUploads] = useState<string[]>([]);
  const [uploadKey, setUploadKey] = useState(0);
  const [initial, setInitial] = useState<V>(options.initial);
  const form = useForm<V>({ schema, defaultValues: initial });
  const dropUploads = () => {
    setUploads([]);
    setUploadKey((k) => k + 1);
  };

  const onSubmit = alerts.submit(
    form.handleSubmit((values) =>
      alerts.save(async () => {
        if (editing) {
          await update(values, uploads);
          alerts.setMessage(`${word} updated`);
          setInitial(values);
          form.reset(values);
          dropUploads();
        } else {
          await create(values);
          alerts.setMessage(`${word} created`);
          const fresh = blank();
          setInitial(fresh);
          form.reset(fresh);
        }
        await onSaved();
      }),
    ),
  );

  /** What the record form's foot takes: alerts, uploads, Reset Values and the submit state. */
  const foot = {
    uploadKey,
    uploads,
    onUploadsChange: setUploads,
    onFilesChanged: onSaved,
    error: alerts.error,
    message: alerts.message,
    onCloseError: alerts.onCloseError,
    onCloseMessage: alerts.onCloseMessage,
    dirty: form.formState.isDirty,
    submitting: form.formState.isSubmitting,
    onReset: () => {
      form.reset(initial);
      alerts.clear();
      // Uploads not yet saved with the record are dropped too (their temp files reverted).
      dropUploads();
    },
  };
  return { form, onSubmit, foot };
}

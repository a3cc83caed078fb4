import { useState, type ReactNode } from 'react';
import { Button, Card, Col, Form, Row } from 'react-bootstrap';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  emptyLoweringForm,
  isNonStandardId,
  loweringCreateBody,
  loweringFormSchemaFor,
  loweringSummaryText,
  loweringToForm,
  loweringUpdateBody,
  recordFormMessages,
  type Lowering,
  type LoweringFormValues,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { createRecord, updateRecord } from '../../api/records';
import { TextField } from '../../components/form-field';
import { useEntityNames, useSettings } from '../../lib/settings';
import { ArchiveSettings } from '../records/components/archive-settings';
import { CopyButton } from '../records/components/copy-button';
import { RecordFormFoot } from '../records/components/record-form-foot';

export interface LoweringFormProps {
  /** The lowering being edited; null = add mode. */
  lowering: Lowering | null;
  isAdmin: boolean;
  /** After a successful create or update: refresh the lists. */
  onSaved: () => Promise<unknown>;
  /** Update mode only: opens the milestones/stats editor (the orange Milestones button). */
  milestonesButton?: ReactNode;
}

/**
 * The add/update form on the right of /lowerings (seed 001 §4.2, §5; client-behaviour §11.2-11.3).
 * Mount it with `key={lowering?.id ?? 'new'}` so choosing another lowering starts afresh.
 */
export function LoweringForm({ lowering, isAdmin, onSaved, milestonesButton }: LoweringFormProps) {
  const names = useEntityNames();
  const settings = useSettings();
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [uploads, setUploads] = useState<string[]>([]);
  const [uploadKey, setUploadKey] = useState(0);
  const [initial, setInitial] = useState<LoweringFormValues>(() =>
    lowering ? loweringToForm(lowering) : emptyLoweringForm(),
  );
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<LoweringFormValues>({
    resolver: zodResolver(loweringFormSchemaFor({ locked: !!lowering && !isAdmin })),
    defaultValues: initial,
  });
  const id = useWatch({ control, name: 'lowering_id' });
  const locked = !!lowering && !isAdmin;
  const W = names.Lowering;

  const onSubmit = handleSubmit(async (form) => {
    setError('');
    setMessage('');
    try {
      if (lowering) {
        await updateRecord('lowering', lowering.id, loweringUpdateBody(form, lowering, { isAdmin, uploads }));
        setMessage(`${W} updated`);
        setInitial(form);
        reset(form);
        setUploads([]);
        setUploadKey((k) => k + 1);
      } else {
        await createRecord('lowering', loweringCreateBody(form));
        setMessage(`${W} created`);
        const fresh = emptyLoweringForm();
        setInitial(fresh);
        reset(fresh);
      }
      await onSaved();
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  const title = lowering ? `Update ${W}` : `Add ${W}`;
  const field = { idPrefix: 'lowering-form' };
  return (
    <Card>
      <Card.Header as="h2" className="h6 mb-0 py-2 d-flex align-items-center">
        <span className="me-auto">{title}</span>
        {lowering && (
          <CopyButton
            text={() => loweringSummaryText(lowering, names, settings.milestones)}
            label={`Copy ${lowering.lowering_id} to clipboard`}
          />
        )}
      </Card.Header>
      <Card.Body>
        <Form noValidate onSubmit={onSubmit} aria-label={title}>
          <Row>
            <Col lg={6}>
              <TextField
                {...field}
                label={`${W} ID`}
                required
                placeholder={settings.loweringIdPlaceholder ?? 'i.e. ROV-0042'}
                registration={register('lowering_id')}
                error={errors.lowering_id}
                warning={
                  isNonStandardId(id ?? '', settings.loweringIdRegex) ? recordFormMessages.nonStandardId : undefined
                }
                disabled={locked}
                autoComplete="off"
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label={`${W} Location`}
                placeholder="i.e. Kelvin Seamount"
                registration={register('lowering_location')}
                error={errors.lowering_location}
                autoComplete="off"
              />
            </Col>
          </Row>
          <TextField
            {...field}
            label={`${W} Description`}
            rows={8}
            placeholder={`i.e. A brief description of the ${names.lowering}`}
            registration={register('lowering_description')}
            error={errors.lowering_description}
          />
          <Row>
            <Col lg={6}>
              <TextField
                {...field}
                label="Start Date/Time (UTC)"
                required
                placeholder="YYYY-MM-DD HH:mm"
                registration={register('start_ts')}
                error={errors.start_ts}
                disabled={locked}
                autoComplete="off"
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label="Stop Date/Time (UTC)"
                required
                placeholder="YYYY-MM-DD HH:mm"
                registration={register('stop_ts')}
                error={errors.stop_ts}
                disabled={locked}
                autoComplete="off"
              />
            </Col>
          </Row>
          <TextField
            {...field}
            label={`${W} Tags, comma delimited`}
            rows={2}
            placeholder="i.e. coral,chemistry,engineering"
            registration={register('lowering_tags')}
            error={errors.lowering_tags}
          />
          <RecordFormFoot
            kind="lowering"
            record={lowering ? { id: lowering.id, files: lowering.lowering_additional_meta.lowering_files } : null}
            title={W}
            uploadKey={uploadKey}
            uploads={uploads}
            onUploadsChange={setUploads}
            onFilesChanged={onSaved}
            error={error}
            message={message}
            onCloseError={() => setError('')}
            onCloseMessage={() => setMessage('')}
            dirty={isDirty}
            submitting={isSubmitting}
            onReset={() => {
              reset(initial);
              setError('');
              setMessage('');
              // Uploads not yet saved with the record are dropped too (their temp files reverted).
              setUploads([]);
              setUploadKey((k) => k + 1);
            }}
            leading={lowering ? milestonesButton : undefined}
          />
        </Form>
        {lowering && (
          <ArchiveSettings
            key={lowering.id}
            kind="lowering"
            id={lowering.id}
            isPublic={lowering.lowering_public}
            embargoUntil={lowering.lowering_embargo_until}
            onSaved={onSaved}
          />
        )}
      </Card.Body>
    </Card>
  );
}

/** The orange Milestones button of the form's foot. */
export function MilestonesButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="warning" size="sm" type="button" onClick={onClick} className="me-auto">
      Milestones
    </Button>
  );
}

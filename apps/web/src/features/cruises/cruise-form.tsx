import { useState } from 'react';
import { Card, Col, Form, Row } from 'react-bootstrap';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  cruiseCreateBody,
  cruiseFormSchemaFor,
  cruiseSummaryText,
  cruiseToForm,
  cruiseUpdateBody,
  emptyCruiseForm,
  isNonStandardId,
  recordFormMessages,
  type Cruise,
  type CruiseFormValues,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { createRecord, updateRecord } from '../../api/records';
import { TextField } from '../../components/form-field';
import { useEntityNames, useSettings } from '../../lib/settings';
import { ArchiveSettings } from '../records/components/archive-settings';
import { CopyButton } from '../records/components/copy-button';
import { RecordFormFoot } from '../records/components/record-form-foot';

export interface CruiseFormProps {
  /** The cruise being edited; null = add mode. */
  cruise: Cruise | null;
  isAdmin: boolean;
  onSaved: () => Promise<unknown>;
}

/**
 * The add/update form of /cruises (seed 001 §4.2, §5; client-behaviour §11.2-11.3). A cruise
 * manager edits only the active cruise, with the ID, vessel, PI, dates and ports disabled.
 */
export function CruiseForm({ cruise, isAdmin, onSaved }: CruiseFormProps) {
  const names = useEntityNames();
  const settings = useSettings();
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [uploads, setUploads] = useState<string[]>([]);
  const [uploadKey, setUploadKey] = useState(0);
  const [initial, setInitial] = useState<CruiseFormValues>(() =>
    cruise ? cruiseToForm(cruise) : emptyCruiseForm(settings.defaultVessel),
  );
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<CruiseFormValues>({
    resolver: zodResolver(cruiseFormSchemaFor({ locked: !isAdmin })),
    defaultValues: initial,
  });
  const id = useWatch({ control, name: 'cruise_id' });
  const locked = !isAdmin;
  const W = names.Cruise;

  const onSubmit = handleSubmit(async (form) => {
    setError('');
    setMessage('');
    try {
      if (cruise) {
        await updateRecord('cruise', cruise.id, cruiseUpdateBody(form, cruise, { isAdmin, uploads }));
        setMessage(`${W} updated`);
        setInitial(form);
        reset(form);
        setUploads([]);
        setUploadKey((k) => k + 1);
      } else {
        await createRecord('cruise', cruiseCreateBody(form));
        setMessage(`${W} created`);
        const fresh = emptyCruiseForm(settings.defaultVessel);
        setInitial(fresh);
        reset(fresh);
      }
      await onSaved();
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  const title = cruise ? `Update ${W}` : `Add ${W}`;
  const field = { idPrefix: 'cruise-form', autoComplete: 'off' };
  return (
    <Card>
      <Card.Header as="h2" className="h6 mb-0 py-2 d-flex align-items-center">
        <span className="me-auto">{title}</span>
        {cruise && (
          <CopyButton text={() => cruiseSummaryText(cruise, names)} label={`Copy ${cruise.cruise_id} to clipboard`} />
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
                placeholder={settings.cruiseIdPlaceholder ?? 'i.e. CS2001'}
                registration={register('cruise_id')}
                error={errors.cruise_id}
                warning={
                  isNonStandardId(id ?? '', settings.cruiseIdRegex) ? recordFormMessages.nonStandardId : undefined
                }
                disabled={locked}
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label={`${W} Name`}
                placeholder="i.e. Lost City 2018"
                registration={register('cruise_name')}
                error={errors.cruise_name}
              />
            </Col>
          </Row>
          <Row>
            <Col lg={6}>
              <TextField
                {...field}
                label="Vessel Name"
                required
                placeholder="i.e. R/V Discovery"
                registration={register('cruise_vessel')}
                error={errors.cruise_vessel}
                disabled={locked}
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label="Primary Investigator"
                required
                placeholder="i.e. Dr. Susan Lang"
                registration={register('cruise_pi')}
                error={errors.cruise_pi}
                disabled={locked}
              />
            </Col>
          </Row>
          <TextField
            {...field}
            label={`${W} Location`}
            placeholder="i.e. Lost City, Mid Atlantic Ridge"
            registration={register('cruise_location')}
            error={errors.cruise_location}
          />
          <TextField
            {...field}
            label={`${W} Description`}
            rows={8}
            placeholder={`i.e. A brief description of the ${names.cruise}`}
            registration={register('cruise_description')}
            error={errors.cruise_description}
          />
          <Row>
            <Col lg={6}>
              <TextField
                {...field}
                label="Start Date (UTC)"
                required
                placeholder="YYYY-MM-DD"
                registration={register('start_ts')}
                error={errors.start_ts}
                disabled={locked}
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label="Stop Date (UTC)"
                required
                placeholder="YYYY-MM-DD"
                registration={register('stop_ts')}
                error={errors.stop_ts}
                disabled={locked}
              />
            </Col>
          </Row>
          <Row>
            <Col lg={6}>
              <TextField
                {...field}
                label="Departure Port"
                required
                placeholder="i.e. Norfolk, VA"
                registration={register('cruise_departure_location')}
                error={errors.cruise_departure_location}
                disabled={locked}
              />
            </Col>
            <Col lg={6}>
              <TextField
                {...field}
                label="Arrival Port"
                required
                placeholder="i.e. St. George's, Bermuda"
                registration={register('cruise_arrival_location')}
                error={errors.cruise_arrival_location}
                disabled={locked}
              />
            </Col>
          </Row>
          <TextField
            {...field}
            label="Participants, comma delimited"
            rows={2}
            placeholder="i.e. Dave Butterfield,Sharon Walker"
            registration={register('cruise_participants')}
            error={errors.cruise_participants}
          />
          <TextField
            {...field}
            label={`${W} Tags, comma delimited`}
            rows={2}
            placeholder="i.e. coral,chemistry,engineering"
            registration={register('cruise_tags')}
            error={errors.cruise_tags}
          />
          <RecordFormFoot
            kind="cruise"
            record={cruise ? { id: cruise.id, files: cruise.cruise_additional_meta.cruise_files } : null}
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
          />
        </Form>
        {cruise && (
          <ArchiveSettings
            key={cruise.id}
            kind="cruise"
            id={cruise.id}
            isPublic={cruise.cruise_public}
            embargoUntil={cruise.cruise_embargo_until}
            onSaved={onSaved}
          />
        )}
      </Card.Body>
    </Card>
  );
}

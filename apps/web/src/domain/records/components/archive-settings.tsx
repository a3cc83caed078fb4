import { useId, useState } from 'react';
import { Button, Form } from 'react-bootstrap';
import { errorMessage } from '../../../api/client';
import { updateRecord } from '../../../api/records';
import { ErrorAlert } from '../../../components/alerts';
import { DateTimeInput } from '../../../components/date-time-input';
import { useSettings } from '../../../lib/settings';
import { embargoDateOf, embargoToSave } from '../lib/archive-embargo';

type Visibility = 'inherit' | 'public' | 'private';

export interface ArchiveSettingsProps {
  kind: 'cruise' | 'lowering';
  id: string;
  /** As the record came: `<kind>_public` (a lowering's null inherits) and `<kind>_embargo_until`. */
  isPublic: boolean | null | undefined;
  embargoUntil: string | null | undefined;
  onSaved: () => Promise<unknown>;
}

/**
 * The public archive setting of a cruise or lowering (docs/public-archive.md): public or not (a
 * lowering may inherit its cruise's), and the UTC date its embargo ends. Shown while the server's
 * archive is on; saved on its own, so the record's form stays as it was.
 */
export function ArchiveSettings({ kind, id, isPublic, embargoUntil, onSaved }: ArchiveSettingsProps) {
  const settings = useSettings();
  const baseId = useId();
  const [visibility, setVisibility] = useState<Visibility>(
    isPublic === true ? 'public' : isPublic === false || kind === 'cruise' ? 'private' : 'inherit',
  );
  const [until, setUntil] = useState(embargoDateOf(embargoUntil));
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const untilAt = embargoToSave(until, embargoUntil);
  const untilBad = untilAt === undefined;
  if (!settings.publicArchive) return null;

  const save = async () => {
    setError('');
    setMessage('');
    if (untilBad) return;
    setSaving(true);
    try {
      const inherit = visibility === 'inherit';
      await updateRecord(kind, id, {
        [`${kind}_public`]: inherit ? null : visibility === 'public',
        [`${kind}_embargo_until`]: inherit ? null : untilAt,
      });
      setMessage('Archive setting saved');
      await onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <fieldset className="border rounded p-2 mt-3">
      <legend className="h6 float-none w-auto px-1 mb-1">Public archive</legend>
      <Form.Group className="mb-2" controlId={`${baseId}-visibility`}>
        <Form.Label>Visibility</Form.Label>
        <Form.Select value={visibility} onChange={(e) => setVisibility(e.target.value as Visibility)}>
          {kind === 'lowering' && <option value="inherit">As its cruise</option>}
          <option value="private">Not public</option>
          <option value="public">Public</option>
        </Form.Select>
      </Form.Group>
      <Form.Group className="mb-2" controlId={`${baseId}-embargo`}>
        <Form.Label>Embargoed until (UTC date, empty for none)</Form.Label>
        <DateTimeInput
          mode="date"
          placeholder="YYYY-MM-DD"
          value={until}
          disabled={visibility === 'inherit'}
          isInvalid={untilBad}
          onChange={(e) => setUntil(e.target.value)}
          feedback={<Form.Control.Feedback type="invalid">{untilBad ? 'Invalid timestamp' : ''}</Form.Control.Feedback>}
        />
      </Form.Group>
      <ErrorAlert message={error} onClose={() => setError('')} />
      {message && (
        <p role="status" className="mb-2">
          {message}
        </p>
      )}
      <Button type="button" size="sm" disabled={saving} onClick={() => void save()}>
        Save archive setting
      </Button>
    </fieldset>
  );
}

import type { ReactNode } from 'react';
import { FormActions } from '../../../components/form-actions';
import type { RecordKind } from '../../../api/records';
import { FileUpload } from './file-upload';
import { RecordFiles } from './record-files';

export interface RecordFormFootProps {
  kind: RecordKind;
  /** The record being edited (files and upload need it); null in add mode. */
  record: { id: string; files?: string[] } | null;
  /** The record's display name ("Cruise", "Dive" …). */
  title: string;
  /** Bumped after a save so the upload area starts empty. */
  uploadKey: number;
  uploads: string[];
  onUploadsChange: (ids: string[]) => void;
  /** After a file is deleted: reload the record. */
  onFilesChanged: () => Promise<unknown>;
  error: string;
  message: string;
  onCloseError: () => void;
  onCloseMessage: () => void;
  dirty: boolean;
  submitting: boolean;
  onReset: () => void;
  /** Buttons before Reset / Add-Update (the lowering's Milestones). */
  leading?: ReactNode;
}

/**
 * The foot of the cruise and lowering forms (docs/screens.md#files-and-uploads): the record's files with
 * delete, the upload area (usable once the record exists), alerts, and Reset Values / Add or Update.
 */
export function RecordFormFoot(props: RecordFormFootProps) {
  const { kind, record, title } = props;
  return (
    <>
      {record && (
        <RecordFiles
          kind={kind}
          recordId={record.id}
          files={record.files}
          title={`${title} Files`}
          onDeleted={props.onFilesChanged}
        />
      )}
      <FileUpload
        key={props.uploadKey}
        kind={kind}
        recordId={record?.id ?? null}
        onChange={props.onUploadsChange}
        label={`Upload ${title} Files`}
      />
      <FormActions
        error={props.error}
        message={props.message}
        onCloseError={props.onCloseError}
        onCloseMessage={props.onCloseMessage}
        resetLabel="Reset Values"
        dirty={props.dirty}
        submitting={props.submitting}
        onReset={props.onReset}
        submitLabel={record ? 'Update' : 'Add'}
        editing={!!record}
        extraDirty={props.uploads.length > 0}
        leading={props.leading}
      />
    </>
  );
}

import { CopyButton } from './copy-button';
import { IconButton } from '../../../components/icon-button';

/** One management row's record, whatever its kind. */
export interface RecordRowInfo {
  id: string;
  /** cruise_id or lowering_id. */
  humanId: string;
  hidden: boolean;
  /**
   * Why the record may not be changed here (a shore server's copy of a ship's record,
   * docs/screens.md#ship-to-shore): edit, permissions, hide/show and delete are disabled with it as
   * their tooltip.
   */
  readOnly?: string;
}

export interface RecordRowActionsProps {
  row: RecordRowInfo;
  /** "Cruise" / "Lowering" (configured word). */
  word: string;
  isAdmin: boolean;
  /** Access control is on (permissions icon, admin only). */
  useAccessControl: boolean;
  onEdit: () => void;
  onPermissions: () => void;
  onExport: () => void;
  onToggleHidden: () => void;
  onDelete: () => void;
  /** The clipboard text (docs/screens.md#clipboard-summaries). */
  summary: () => string;
}

/**
 * A management row's icons in the order users know (docs/screens.md#row-actions): edit, permissions
 * (admin, access control on), server-side export (admin), hide/show (admin), delete (admin),
 * copy to clipboard.
 */
export function RecordRowActions({
  row,
  word,
  isAdmin,
  useAccessControl,
  onEdit,
  onPermissions,
  onExport,
  onToggleHidden,
  onDelete,
  summary,
}: RecordRowActionsProps) {
  const readOnly = row.readOnly;
  return (
    <div className="d-flex flex-wrap justify-content-center">
      <IconButton
        icon="bi-pencil-fill"
        label={`Edit ${row.humanId}`}
        title={`Edit this ${word.toLowerCase()}`}
        className="text-warning"
        onClick={onEdit}
        disabledReason={readOnly}
      />
      {isAdmin && useAccessControl && (
        <IconButton
          icon="bi-person-fill-lock"
          label={`Permissions of ${row.humanId}`}
          title={`${word} permissions`}
          className="text-primary"
          onClick={onPermissions}
          disabledReason={readOnly}
        />
      )}
      {isAdmin && (
        <IconButton
          icon="bi-cloud-download-fill"
          label={`Export ${row.humanId}`}
          title={`Export this ${word.toLowerCase()}`}
          className="text-primary"
          onClick={onExport}
        />
      )}
      {isAdmin &&
        (row.hidden ? (
          <IconButton
            icon="bi-eye-slash-fill"
            label={`Show ${row.humanId}`}
            title={`${word} is hidden, click to show.`}
            className="text-secondary"
            onClick={onToggleHidden}
            disabledReason={readOnly}
          />
        ) : (
          <IconButton
            icon="bi-eye-fill"
            label={`Hide ${row.humanId}`}
            title={`${word} is visible, click to hide.`}
            className="text-success"
            onClick={onToggleHidden}
            disabledReason={readOnly}
          />
        ))}
      {isAdmin && (
        <IconButton
          icon="bi-trash-fill"
          label={`Delete ${row.humanId}`}
          title={`Delete this ${word.toLowerCase()}`}
          className="text-danger"
          onClick={onDelete}
          disabledReason={readOnly}
        />
      )}
      <CopyButton text={summary} label={`Copy ${row.humanId} to clipboard`} />
    </div>
  );
}

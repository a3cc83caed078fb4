import { CopyButton } from './copy-button';

/** One management row's record, whatever its kind. */
export interface RecordRowInfo {
  id: string;
  /** cruise_id or lowering_id. */
  humanId: string;
  hidden: boolean;
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
  /** The clipboard text (client-behaviour §8.5). */
  summary: () => string;
}

function ActionButton({
  icon,
  label,
  title,
  className,
  onClick,
}: {
  icon: string;
  label: string;
  title: string;
  className: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`btn btn-link p-0 ms-2 lh-1 ${className}`}
      title={title}
      aria-label={label}
      onClick={onClick}
    >
      <i className={`bi ${icon}`} aria-hidden="true" />
    </button>
  );
}

/**
 * A management row's icons in the order users know (client-behaviour §11.1): edit, permissions
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
  return (
    <div className="d-flex flex-wrap justify-content-center">
      <ActionButton
        icon="bi-pencil-fill"
        label={`Edit ${row.humanId}`}
        title={`Edit this ${word.toLowerCase()}`}
        className="text-warning"
        onClick={onEdit}
      />
      {isAdmin && useAccessControl && (
        <ActionButton
          icon="bi-person-fill-lock"
          label={`Permissions of ${row.humanId}`}
          title={`${word} permissions`}
          className="text-primary"
          onClick={onPermissions}
        />
      )}
      {isAdmin && (
        <ActionButton
          icon="bi-cloud-download-fill"
          label={`Export ${row.humanId}`}
          title={`Export this ${word.toLowerCase()}`}
          className="text-primary"
          onClick={onExport}
        />
      )}
      {isAdmin &&
        (row.hidden ? (
          <ActionButton
            icon="bi-eye-slash-fill"
            label={`Show ${row.humanId}`}
            title={`${word} is hidden, click to show.`}
            className="text-secondary"
            onClick={onToggleHidden}
          />
        ) : (
          <ActionButton
            icon="bi-eye-fill"
            label={`Hide ${row.humanId}`}
            title={`${word} is visible, click to hide.`}
            className="text-success"
            onClick={onToggleHidden}
          />
        ))}
      {isAdmin && (
        <ActionButton
          icon="bi-trash-fill"
          label={`Delete ${row.humanId}`}
          title={`Delete this ${word.toLowerCase()}`}
          className="text-danger"
          onClick={onDelete}
        />
      )}
      <CopyButton text={summary} label={`Copy ${row.humanId} to clipboard`} />
    </div>
  );
}

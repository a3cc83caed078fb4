/**
 * An icon button for a row or card header: a real button, so Tab and Enter work. `label` names it
 * for screen readers; `title` (the hover tooltip) defaults to the label. With `disabledReason` it
 * stays focusable and hoverable but does nothing: the reason is its tooltip (and its accessible
 * description).
 */
export function IconButton({
  icon,
  label,
  title = label,
  className,
  onClick,
  disabledReason,
}: {
  icon: string;
  label: string;
  title?: string;
  className: string;
  onClick: () => void;
  disabledReason?: string;
}) {
  if (disabledReason) {
    return (
      <button
        type="button"
        className="btn btn-link p-0 ms-2 lh-1 text-secondary"
        style={{ cursor: 'not-allowed' }}
        title={disabledReason}
        aria-label={label}
        aria-disabled="true"
      >
        <i className={`bi ${icon}`} aria-hidden="true" />
      </button>
    );
  }
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
 * A management row's Edit and Delete icons for one named record ("checklist Pre-dive", "ship
 * Falkor"): edit in the warning colour and delete in the danger colour, as every management table
 * shows them.
 */
export function EditDeleteButtons({
  record,
  onEdit,
  onDelete,
}: {
  record: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <IconButton icon="bi-pencil-fill" label={`Edit ${record}`} className="text-warning" onClick={onEdit} />
      <IconButton icon="bi-trash-fill" label={`Delete ${record}`} className="text-danger" onClick={onDelete} />
    </>
  );
}

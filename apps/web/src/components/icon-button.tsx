/**
 * An icon button for a row or card header: a real button, so Tab and Enter work. `label` names it
 * for screen readers; `title` (the hover tooltip) defaults to the label.
 */
export function IconButton({
  icon,
  label,
  title = label,
  className,
  onClick,
}: {
  icon: string;
  label: string;
  title?: string;
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

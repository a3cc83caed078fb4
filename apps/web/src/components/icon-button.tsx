/** An icon button for a row or card header: a real button, so Tab and Enter work. */
export function IconButton({
  icon,
  label,
  className,
  onClick,
}: {
  icon: string;
  label: string;
  className: string;
  onClick: () => void;
}) {
  return (
    <button
      type="button"
      className={`btn btn-link p-0 ms-2 lh-1 ${className}`}
      title={label}
      aria-label={label}
      onClick={onClick}
    >
      <i className={`bi ${icon}`} aria-hidden="true" />
    </button>
  );
}

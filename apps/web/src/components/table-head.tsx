/**
 * A management table's header row: its column titles, then a last column for the row actions
 * (named for screen readers only, as the icons beside each row say what they do).
 */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((title) => (
          <th key={title} scope="col">
            {title}
          </th>
        ))}
        <th scope="col">
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

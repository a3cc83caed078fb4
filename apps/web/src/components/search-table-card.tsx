import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Card, Form, Table } from 'react-bootstrap';
import { IconButton } from './icon-button';
import { Pagination, pageSlice } from './pagination';
import { readFailure } from '../lib/read-errors';
import { ErrorAlert } from './alerts';
import { EmptyText, LoadingText } from './status-text';

export interface SearchTableCardProps<T> {
  /** The card's heading, e.g. "System Users"; also names its search box, export icon and pager. */
  title: string;
  /** Prefix of the heading's element id, e.g. "users-table". */
  idPrefix: string;
  items: T[];
  matches: (item: T, search: string) => boolean;
  pageSize: number;
  loading: boolean;
  /** Default: "Fetching..." (docs/screens.md#loading-and-empty-states). */
  loadingText?: string;
  /** Shown when no item is listed (or none matches the search). */
  emptyText: string;
  /** The read's error: shown ("Oops! …") instead of the empty state when the list could not be read. */
  error?: unknown;
  /** The two text columns' headings. */
  columns: [string, string];
  actionsWidth: number;
  /** One `<tr>` per item of the page shown. */
  renderRow: (item: T) => ReactNode;
  /** The export-to-JSON icon; none when the viewer may not export the list. */
  onExport?: () => void;
  /** With its label, e.g. "Delete all non-system users"; the regular table only. */
  deleteAll?: { label: string; onClick: () => void };
  className?: string;
}

/**
 * A management table in a card (docs/screens.md#management-tables): title, search, delete-all and
 * export icons in the header, one page of rows, a pager when there is more than a page. Searching
 * goes back to page 1; a delete or a narrower search that leaves the page past the end moves to the
 * last page.
 */
export function SearchTableCard<T>({
  title,
  idPrefix,
  items,
  matches,
  pageSize,
  loading,
  loadingText,
  emptyText,
  error,
  columns,
  actionsWidth,
  renderRow,
  onExport,
  deleteAll,
  className = 'mb-2',
}: SearchTableCardProps<T>) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const matching = useMemo(() => items.filter((item) => matches(item, search)), [items, matches, search]);
  const pageCount = Math.max(1, Math.ceil(matching.length / pageSize));

  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);

  const current = Math.min(page, pageCount);
  const rows = pageSlice(matching, current, pageSize);
  const headingId = `${idPrefix}-${title.replace(/\W+/g, '-').toLowerCase()}`;

  return (
    <Card className={className} as="section" aria-labelledby={headingId}>
      <Card.Header className="d-flex align-items-center gap-2">
        <span id={headingId} className="me-auto">
          {title}
        </span>
        <Form.Control
          size="sm"
          type="search"
          placeholder="Search"
          aria-label={`Search ${title}`}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          style={{ maxWidth: 180 }}
        />
        {deleteAll && (
          <IconButton
            icon="bi-trash-fill"
            label={deleteAll.label}
            className="text-danger"
            onClick={deleteAll.onClick}
          />
        )}
        {onExport && (
          <IconButton
            icon="bi-download"
            label={`Export ${title} as JSON`}
            className="text-primary"
            onClick={onExport}
          />
        )}
      </Card.Header>
      {loading ? (
        <LoadingText text={loadingText} />
      ) : items.length === 0 && readFailure(error) ? (
        <ErrorAlert message={readFailure(error)} className="m-2" />
      ) : matching.length === 0 ? (
        <EmptyText>{emptyText}</EmptyText>
      ) : (
        <Table size="sm" striped bordered className="mb-0 small" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th>{columns[0]}</th>
              <th>{columns[1]}</th>
              <th className="text-center" style={{ width: actionsWidth }}>
                Actions
              </th>
            </tr>
          </thead>
          <tbody>{rows.map(renderRow)}</tbody>
        </Table>
      )}
      {matching.length > pageSize && (
        <Card.Footer className="py-1">
          <Pagination
            page={current}
            total={matching.length}
            pageSize={pageSize}
            onChange={setPage}
            className="mb-0"
            label={`${title} pages`}
          />
        </Card.Footer>
      )}
    </Card>
  );
}

/** The text cells' class: the selected row in orange, a disabled one struck through. */
export function rowTextClass(selected: boolean, disabled: boolean | undefined): string {
  return [selected ? 'text-selected' : '', disabled ? 'text-strike' : ''].join(' ').trim();
}

export interface ManagedTableProps<T extends { id: string }> extends Omit<SearchTableCardProps<T>, 'renderRow'> {
  /** The row in the form, in orange. */
  selectedId: string | null;
  /** A disabled record's text is struck through. */
  isDisabled?: (item: T) => boolean | undefined;
  /** The row's `data-testid`. */
  rowTestId: (item: T) => string;
  /** The two text columns of a row. */
  cells: (item: T) => [ReactNode, ReactNode];
  /** The second column in small print (the records' multi-line details). */
  smallDetails?: boolean;
  /** The row's action icons, and their cell's class. */
  actions: (item: T) => ReactNode;
  actionsClassName?: string;
}

/** A management table whose rows are two text cells and the action icons: the record screens' table. */
export function ManagedTable<T extends { id: string }>({
  selectedId,
  isDisabled,
  rowTestId,
  cells,
  smallDetails = false,
  actions,
  actionsClassName,
  ...card
}: ManagedTableProps<T>) {
  return (
    <SearchTableCard
      {...card}
      renderRow={(item) => {
        const cls = rowTextClass(item.id === selectedId, isDisabled?.(item));
        const [first, second] = cells(item);
        return (
          <tr key={item.id} data-testid={rowTestId(item)}>
            <td className={cls}>{first}</td>
            <td className={smallDetails ? `${cls} small` : cls}>{second}</td>
            <td className={actionsClassName}>{actions(item)}</td>
          </tr>
        );
      }}
    />
  );
}

import { Pagination as BsPagination } from 'react-bootstrap';

export interface PaginationProps {
  /** Current page, 1-based. */
  page: number;
  /** Total number of records (or pass pageCount). */
  total?: number;
  pageSize?: number;
  pageCount?: number;
  onChange: (page: number) => void;
  className?: string;
  /** Accessible name of the nav, e.g. "Users pages". */
  label?: string;
}

/**
 * Page numbers to show: 1, last, current ± 2. A gap of exactly one page shows that page's number;
 * a larger gap shows an ellipsis (docs/screens.md#pagination). 'gap' marks an ellipsis.
 */
export function pageItems(page: number, pageCount: number): Array<number | 'gap'> {
  const wanted = new Set<number>([1, pageCount]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pageCount) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: Array<number | 'gap'> = [];
  let prev = 0;
  for (const p of sorted) {
    if (p - prev === 2) out.push(p - 1);
    else if (p - prev > 2) out.push('gap');
    out.push(p);
    prev = p;
  }
  return out;
}

/** First «, Prev ‹, numbers, Next ›, Last ». Hidden when everything fits on one page. */
export function Pagination({
  page,
  total,
  pageSize = 10,
  pageCount,
  onChange,
  className,
  label = 'Pages',
}: PaginationProps) {
  const count = pageCount ?? Math.ceil((total ?? 0) / pageSize);
  if (count <= 1) return null;
  const current = Math.min(Math.max(1, page), count);
  const go = (p: number) => {
    if (p !== current && p >= 1 && p <= count) onChange(p);
  };
  return (
    <nav aria-label={label}>
      <BsPagination size="sm" className={className ?? 'mt-2 mb-0'}>
        <BsPagination.First disabled={current === 1} onClick={() => go(1)} aria-label="First page" />
        <BsPagination.Prev disabled={current === 1} onClick={() => go(current - 1)} aria-label="Previous page" />
        {pageItems(current, count).map((item, i) =>
          item === 'gap' ? (
            <BsPagination.Ellipsis key={`gap-${i}`} disabled />
          ) : (
            <BsPagination.Item key={item} active={item === current} onClick={() => go(item)}>
              {item}
            </BsPagination.Item>
          ),
        )}
        <BsPagination.Next disabled={current === count} onClick={() => go(current + 1)} aria-label="Next page" />
        <BsPagination.Last disabled={current === count} onClick={() => go(count)} aria-label="Last page" />
      </BsPagination>
    </nav>
  );
}

/** The records of one page (1-based) of a client-side list. */
export function pageSlice<T>(items: readonly T[], page: number, pageSize: number): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}

import type { ReactNode } from 'react';
import { Button } from 'react-bootstrap';
import { Link } from 'wouter';
import { LoadingText } from '../../components/status-text';
import { errorMessage } from '../../api/client';

/** What a section says when the server keeps nothing of it for this dive (its route answered 404). */
export const notRecordedText = 'Not recorded for this dive';

/** One titled block of the report; the print rules keep its heading with its first lines. */
export function ReportSection({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="report-section" aria-labelledby={`${id}-title`} data-testid={`report-${id}`}>
      <h2 id={`${id}-title`} className="h5 report-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The loading, error and empty states of a section's read, then its content. */
export function SectionState<T>({
  query,
  children,
  empty = notRecordedText,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | null | undefined };
  children: (data: T) => ReactNode;
  empty?: string;
}) {
  if (query.isPending) return <LoadingText />;
  if (query.isError) return <div className="text-danger">{errorMessage(query.error)}</div>;
  if (query.data === null || query.data === undefined) return <p className="text-secondary mb-0">{empty}</p>;
  return <>{children(query.data)}</>;
}

/** The bar above the report (not printed): back, and the Print button. */
export function ReportToolbar({ back, backLabel }: { back: string; backLabel: string }) {
  return (
    <div className="report-toolbar d-print-none d-flex align-items-center mb-3">
      <Link to={back} className="me-auto">
        <i className="bi bi-arrow-left me-1" aria-hidden="true" />
        {backLabel}
      </Link>
      <Button variant="primary" size="sm" onClick={() => window.print()}>
        <i className="bi bi-printer me-1" aria-hidden="true" />
        Print
      </Button>
    </div>
  );
}

/** A row of the header's field table, left out when the value is empty. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  if (children === '' || children === null || children === undefined) return null;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
    </tr>
  );
}

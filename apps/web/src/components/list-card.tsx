import type { ReactNode } from 'react';
import { Card } from 'react-bootstrap';
import { ErrorAlert } from './alerts';
import { EmptyText, LoadingText, statusTexts } from './status-text';

/**
 * A titled card holding one list: the read's error, "Loading...", the empty words, or the list
 * itself (docs/screens.md#loading-and-empty-states). The table inside names itself by `titleId`.
 */
export function ListCard({
  title,
  titleId,
  error,
  loading,
  empty,
  emptyText,
  children,
}: {
  title: string;
  titleId: string;
  /** A message when the list could not be read; shown instead of the empty words. */
  error?: string;
  loading: boolean;
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  const state = error ? (
    <ErrorAlert className="mb-0" message={error} />
  ) : loading ? (
    <LoadingText text={statusTexts.loading} />
  ) : empty ? (
    <EmptyText>{emptyText}</EmptyText>
  ) : null;
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0" id={titleId}>
        {title}
      </Card.Header>
      {state ? <Card.Body>{state}</Card.Body> : children}
    </Card>
  );
}

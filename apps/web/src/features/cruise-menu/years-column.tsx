import { Accordion, Card } from 'react-bootstrap';
import type { Cruise } from '@bathylog/shared';
import { ErrorAlert } from '../../components/alerts';
import { EmptyText, LoadingText } from '../../components/status-text';
import { readFailure } from '../../lib/read-errors';
import { useEntityNames } from '../../lib/settings';
import type { YearGroup } from './cruise-menu-state';

export interface YearsColumnProps {
  years: YearGroup[];
  loading: boolean;
  /** The cruises' read error: "Oops! …" instead of the empty state. */
  error?: unknown;
  openYear: number | null;
  selectedCruiseId: string | null;
  onOpenYear: (year: number) => void;
  onSelectCruise: (cruise: Cruise) => void;
}

function CruiseList({
  cruises,
  selectedCruiseId,
  onSelectCruise,
}: Pick<YearsColumnProps, 'selectedCruiseId' | 'onSelectCruise'> & { cruises: Cruise[] }) {
  return (
    <ul className="list-unstyled mb-0">
      {cruises.map((cruise) => (
        <li key={cruise.id}>
          <button
            type="button"
            className={`btn btn-link p-0 text-decoration-none ${cruise.id === selectedCruiseId ? 'text-warning' : ''}`}
            aria-current={cruise.id === selectedCruiseId ? 'true' : undefined}
            onClick={() => onSelectCruise(cruise)}
          >
            {cruise.cruise_id}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * "Year: 2023", in the accordion's headers and in the single year's card alike: one size of
 * heading text (body size) whichever of the two a crew sees.
 */
function YearLabel({ year, open }: { year: number; open: boolean }) {
  return (
    <span data-testid="year-label">
      Year: <span className={open ? 'text-warning' : 'text-primary'}>{year}</span>
    </span>
  );
}

/**
 * The years column (docs/screens.md#years-and-selection): an accordion, newest year on top and one open at a
 * time, when there are several years; a single open card otherwise. "Fetching..." while loading,
 * "No {cruises} found!" when there are none.
 */
export function YearsColumn({
  years,
  loading,
  error,
  openYear,
  selectedCruiseId,
  onOpenYear,
  onSelectCruise,
}: YearsColumnProps) {
  const names = useEntityNames();
  if (loading || years.length === 0) {
    return (
      <Card className="mb-3">
        <Card.Body className="p-0">
          {loading ? (
            <LoadingText />
          ) : readFailure(error) ? (
            <ErrorAlert message={readFailure(error)} className="m-2 small" />
          ) : (
            <EmptyText>{`No ${names.cruises} found!`}</EmptyText>
          )}
        </Card.Body>
      </Card>
    );
  }
  if (years.length === 1) {
    const [only] = years;
    return (
      <Card className="mb-3" as="section" aria-label={`Year: ${only!.year}`}>
        <Card.Header as="h2" className="fs-6 fw-normal lh-base mb-0">
          <YearLabel year={only!.year} open />
        </Card.Header>
        <Card.Body className="py-2">
          <CruiseList cruises={only!.cruises} selectedCruiseId={selectedCruiseId} onSelectCruise={onSelectCruise} />
        </Card.Body>
      </Card>
    );
  }
  return (
    <Accordion
      className="mb-3"
      activeKey={openYear === null ? null : String(openYear)}
      onSelect={(key) => {
        if (typeof key === 'string') onOpenYear(Number(key));
      }}
    >
      {years.map((group) => (
        <Accordion.Item key={group.year} eventKey={String(group.year)}>
          <Accordion.Header as="h2">
            <YearLabel year={group.year} open={openYear === group.year} />
          </Accordion.Header>
          <Accordion.Body className="py-2">
            <CruiseList cruises={group.cruises} selectedCruiseId={selectedCruiseId} onSelectCruise={onSelectCruise} />
          </Accordion.Body>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

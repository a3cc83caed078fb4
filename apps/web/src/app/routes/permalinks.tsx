import { Link, Redirect, useParams } from 'wouter';
import { useCruises, useLowerings } from '../../api/records';
import { PlaceholderCard } from '../../components/placeholder-card';
import { LoadingText, statusTexts } from '../../components/status-text';

/**
 * Semantic permalinks (docs/public-archive.md#permalinks): /dive/S0492 opens the review of the dive
 * with that human id, /cruise/FKt230303 the cruise menu at that cruise. The lookup is the list
 * filter on the human id, so it finds exactly what the caller (or the archive visitor) may see.
 */
function NotFound({ what, id }: { what: string; id: string }) {
  return (
    <PlaceholderCard title={`No ${what} ${id}`}>
      <p>
        There is no {what} {id} here, or it is not open to you.
      </p>
      <Link to="/cruise_menu">Back to the cruise menu</Link>
    </PlaceholderCard>
  );
}

export function DivePermalinkRoute() {
  const { id = '' } = useParams();
  const found = useLowerings({ lowering_id: id });
  if (found.isPending) return <LoadingText text={statusTexts.loading} />;
  const lowering = found.data?.[0];
  if (!lowering) return <NotFound what="dive" id={id} />;
  return <Redirect to={`/review_replay/${lowering.id}`} replace />;
}

export function CruisePermalinkRoute() {
  const { id = '' } = useParams();
  const found = useCruises({ cruise_id: id });
  if (found.isPending) return <LoadingText text={statusTexts.loading} />;
  const cruise = found.data?.[0];
  if (!cruise) return <NotFound what="cruise" id={id} />;
  return <Redirect to={`/cruise_menu?cruise=${encodeURIComponent(cruise.id)}`} replace />;
}

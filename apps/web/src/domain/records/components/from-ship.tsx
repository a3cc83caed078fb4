import { fromShipText, shipRecordReadOnlyMessage, type RecordOrigin } from '@bathylog/shared';

/**
 * "From ship <name>" on a record a shore server copied from a ship (docs/screens.md#ship-to-shore).
 * Nothing for a record of this server's own.
 */
export function FromShip({ origin, className = 'mb-2' }: { origin: RecordOrigin | undefined; className?: string }) {
  if (!origin) return null;
  return (
    <p className={`small ${className}`} data-testid="from-ship" title={shipRecordReadOnlyMessage(origin.ship_name)}>
      <i className="bi bi-broadcast-pin me-1" aria-hidden="true" />
      {fromShipText(origin)}
    </p>
  );
}

/** Why a copied record's changes are refused here; undefined for a record of this server's own. */
export function readOnlyReason(origin: RecordOrigin | undefined): string | undefined {
  return origin ? shipRecordReadOnlyMessage(origin.ship_name) : undefined;
}

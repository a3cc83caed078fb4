import { useCallback, useState } from 'react';
import { Button, Card, Col, Row } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type Ship } from '@bathylog/shared';
import { errorMessage, isApiError } from '../../api/client';
import { deleteShip, mergeShip, shipKeys, useShips, useSyncStatus } from '../../api/ships';
import { useSubscription } from '../../api/use-realtime';
import { ConfirmModal } from '../../components/confirm-modal';
import { ErrorAlert } from '../../components/alerts';
import { RoleGate } from '../../components/role-gate';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useLoggedReadError } from '../../lib/read-errors';
import { FollowersCard } from './followers-card';
import { ShipForm } from './ship-form';
import { ShipsTable } from './ships-table';

/** A read's failure as the card shows it; a 404 is an empty list, not a failure. */
function readFailure(error: unknown): string {
  return error && !isApiError(error, 404) ? errorMessage(error) : '';
}

/** How to connect a ship: the follower device key comes from the ship's own Device Keys screen. */
function HowToAddShip() {
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Adding a Ship
      </Card.Header>
      <Card.Body className="small">
        <ol className="ps-3 mb-2">
          <li>
            On the ship, an admin opens System Management → Device Keys and creates a key for this shore server with a
            shore follower right and no other role: it copies what the right allows (everything, or only what a reader
            may read), and writes nothing but comments.
          </li>
          <li>Here, add the ship with its address (e.g. https://ship.example.org) and that key.</li>
        </ol>
        <p className="mb-0">
          Its records are then read-only here, except comments on its events, which travel back to the ship.
        </p>
      </Card.Body>
    </Card>
  );
}

function ShipsAdmin() {
  const queryClient = useQueryClient();
  const ships = useShips();
  const sync = useSyncStatus();
  useLoggedReadError(ships.error, 'ships');
  useLoggedReadError(sync.error, 'sync status');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: shipKeys.all }), [queryClient]);

  // Each state change of a followed ship arrives as its new list entry.
  useSubscription('ships', (ship) => {
    queryClient.setQueryData<Ship[]>(shipKeys.list(), (list) => mergeShip(list, ship));
  });

  const list = ships.data ?? [];
  const selected = list.find((s) => s.id === selectedId) ?? null;
  const removal = useConfirmedAction<Ship>(async (ship) => {
    await deleteShip(ship.id);
    if (ship.id === selectedId) setSelectedId(null);
  }, refresh);

  return (
    <Row className="g-3">
      <Col lg={8}>
        <ErrorAlert message={removal.error} onClose={removal.clearError} />
        <ShipsTable
          ships={list}
          loading={ships.isPending}
          error={readFailure(ships.error)}
          selectedId={selectedId}
          onEdit={(ship) => {
            setSelectedId(ship.id);
            window.scrollTo({ top: 0 });
          }}
          onDelete={removal.ask}
        />
        <div className="d-flex justify-content-end mb-3">
          <Button
            variant="outline-primary"
            size="sm"
            disabled={!selected}
            onClick={() => {
              setSelectedId(null);
              setFormKey((k) => k + 1);
            }}
          >
            Add Ship
          </Button>
        </div>
        <FollowersCard status={sync.data} loading={sync.isPending} error={readFailure(sync.error)} />
      </Col>
      <Col lg={4}>
        <div className="mb-3">
          <ShipForm key={`${selected?.id ?? 'new'}-${formKey}`} ship={selected} onSaved={refresh} />
        </div>
        <HowToAddShip />
      </Col>
      <ConfirmModal
        show={removal.pending !== null}
        body={`Are you sure you want to delete the ship ${removal.pending?.name ?? ''}? This server stops following it.`}
        busy={removal.busy}
        onConfirm={() => void removal.confirm()}
        onHide={() => removal.ask(null)}
      />
    </Row>
  );
}

/** /ships: ship to shore, admins only; anyone else is sent home (docs/screens.md#ship-to-shore). */
export function ShipsScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly} redirectTo="/">
      <ShipsAdmin />
    </RoleGate>
  );
}

import { useRef, useState } from 'react';
import { Form, Modal } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import type { Cruise, User } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { ModalFooter, ModalHeader } from '../../components/modal-parts';
import { EmptyText, LoadingText } from '../../components/status-text';
import { useEntityNames } from '../../lib/settings';
import {
  accessKeys,
  changeCruisePermissions,
  changeLoweringPermissions,
  getLoweringsOfCruise,
  useAllCruises,
  useLoweringsOfCruise,
} from './api/access-permissions';
import { useLoggedReadError } from '../../lib/read-errors';

/** Runs a change; `shown` holds the switch positions to show until the records are read again. */
type Run = (work: () => Promise<void>, shown: Record<string, boolean>) => Promise<void>;

interface CruiseRowProps {
  cruise: Cruise;
  userId: string;
  busy: boolean;
  pending: Record<string, boolean>;
  run: Run;
}

/**
 * One cruise switch and its lowerings (docs/screens.md#user-permissions): turning the cruise on
 * also grants every lowering of it; turning it off removes the user from the cruise only. Lowering
 * switches are disabled unless the user has the cruise.
 */
function CruiseRow({ cruise, userId, busy, pending, run }: CruiseRowProps) {
  const names = useEntityNames();
  const lowerings = useLoweringsOfCruise(cruise.id, true);
  useLoggedReadError(lowerings.error, names.lowerings);
  // Dives in the order they happened.
  const sorted = [...(lowerings.data ?? [])].sort((a, b) => a.start_ts.localeCompare(b.start_ts));
  const hasCruise = pending[cruise.id] ?? (cruise.cruise_access_list ?? []).includes(userId);
  const name = cruise.cruise_additional_meta.cruise_name ?? '';

  const toggleCruise = () => {
    if (hasCruise) return run(() => changeCruisePermissions(cruise.id, { remove: [userId] }), { [cruise.id]: false });
    const shown: Record<string, boolean> = { [cruise.id]: true };
    for (const lowering of lowerings.data ?? []) shown[lowering.id] = true;
    return run(async () => {
      await changeCruisePermissions(cruise.id, { add: [userId] });
      // Read the lowerings again: the server may already have granted them with the cruise.
      for (const lowering of await getLoweringsOfCruise(cruise.id)) {
        if (!(lowering.lowering_access_list ?? []).includes(userId)) {
          await changeLoweringPermissions(lowering.id, { add: [userId] });
        }
      }
    }, shown);
  };

  return (
    <li className="mb-2">
      <Form.Check
        type="switch"
        id={`access-cruise-${cruise.id}`}
        label={`${cruise.cruise_id}: ${name}`}
        checked={hasCruise}
        disabled={busy}
        onChange={() => void toggleCruise()}
      />
      {sorted.length > 0 && (
        <ul className="list-unstyled ms-4 mt-1">
          {sorted.map((lowering) => {
            const hasLowering = pending[lowering.id] ?? (lowering.lowering_access_list ?? []).includes(userId);
            return (
              <li key={lowering.id}>
                <Form.Check
                  type="switch"
                  id={`access-lowering-${lowering.id}`}
                  label={`${lowering.lowering_id}: ${lowering.lowering_location}`}
                  checked={hasLowering}
                  disabled={busy || !hasCruise}
                  onChange={() =>
                    void run(
                      () =>
                        changeLoweringPermissions(lowering.id, hasLowering ? { remove: [userId] } : { add: [userId] }),
                      { [lowering.id]: !hasLowering },
                    )
                  }
                />
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}

/** "User Permissions": which cruises and lowerings a user may see when access control is on. */
export function UserPermissionsModal({ user, onHide }: { user: User | null; onHide: () => void }) {
  const names = useEntityNames();
  const queryClient = useQueryClient();
  const cruises = useAllCruises(!!user);
  useLoggedReadError(cruises.error, names.cruises);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [pending, setPending] = useState<Record<string, boolean>>({});
  // The modal fades out after `user` is cleared and renders its list meanwhile: for the last user.
  const lastUser = useRef(user);
  if (user) lastUser.current = user;
  const listedUserId = lastUser.current?.id ?? '';

  // The switch moves at once; each change is followed by a re-read of the records,
  // which then decides what the switches show.
  const run: Run = async (work, shown) => {
    setBusy(true);
    setError('');
    setPending(shown);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      await queryClient.invalidateQueries({ queryKey: accessKeys.all });
      setPending({});
      setBusy(false);
    }
  };

  return (
    <Modal show={!!user} onHide={onHide} centered aria-labelledby="user-permissions-title" scrollable>
      <ModalHeader id="user-permissions-title">User Permissions</ModalHeader>
      <Modal.Body>
        {user && <div className="mb-2 small text-secondary">{`${user.fullname} (${user.username})`}</div>}
        <ErrorAlert message={error} onClose={() => setError('')} />
        {cruises.isPending ? (
          <LoadingText />
        ) : (cruises.data ?? []).length === 0 ? (
          <EmptyText>{`No ${names.cruises} found!`}</EmptyText>
        ) : (
          <ul className="list-unstyled mb-0">
            {cruises.data!.map((cruise) => (
              <CruiseRow
                key={cruise.id}
                cruise={cruise}
                userId={listedUserId}
                busy={busy}
                pending={pending}
                run={run}
              />
            ))}
          </ul>
        )}
      </Modal.Body>
      <ModalFooter onClose={onHide} />
    </Modal>
  );
}

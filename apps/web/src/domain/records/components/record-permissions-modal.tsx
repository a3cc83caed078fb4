import { useState } from 'react';
import { Form, Modal } from 'react-bootstrap';
import { errorMessage } from '../../../api/client';
import { changeCruisePermissions, changeLoweringPermissions, type RecordKind } from '../../../api/records';
import { useUsers } from '../../../api/users';
import { ErrorAlert } from '../../../components/alerts';
import { ModalFooter, ModalHeader } from '../../../components/modal-parts';
import { EmptyText, LoadingText, statusTexts } from '../../../components/status-text';
import { useLoggedReadError } from '../../../lib/read-errors';

export interface RecordPermissionsModalProps {
  /** The record; null = closed. */
  target: { kind: RecordKind; id: string; humanId: string; accessList: readonly string[] } | null;
  /** "Lowering Permissions" / "Cruise Permissions". */
  title: string;
  onHide: () => void;
  /** Re-reads the record after each change, so the switches show what was stored. */
  onChanged: () => Promise<unknown>;
}

/**
 * "{Lowering} Permissions" / "{Cruise} Permissions" (docs/screens.md#record-permissions):
 * every user with a switch labelled with the full name; on = the user id is in the record's access
 * list. A toggle sends {add} or {remove}, then the record is read again.
 */
export function RecordPermissionsModal({ target, title, onHide, onChanged }: RecordPermissionsModalProps) {
  const users = useUsers({ enabled: !!target });
  useLoggedReadError(users.error, 'users');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [pending, setPending] = useState<Record<string, boolean>>({});

  const toggle = async (userId: string, on: boolean) => {
    if (!target) return;
    setBusy(true);
    setError('');
    setPending({ [userId]: on });
    const change = on ? { add: [userId] } : { remove: [userId] };
    try {
      if (target.kind === 'cruise') await changeCruisePermissions(target.id, change);
      else await changeLoweringPermissions(target.id, change);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      await onChanged();
      setPending({});
      setBusy(false);
    }
  };

  const list = [...(users.data ?? [])].sort((a, b) => a.fullname.localeCompare(b.fullname));
  return (
    <Modal show={!!target} onHide={onHide} centered scrollable aria-labelledby="record-permissions-title">
      <ModalHeader id="record-permissions-title">{title}</ModalHeader>
      <Modal.Body>
        {target && <div className="mb-2 small text-secondary">{target.humanId}</div>}
        <ErrorAlert message={error} onClose={() => setError('')} />
        {users.isPending ? (
          <LoadingText />
        ) : list.length === 0 ? (
          <EmptyText>{statusTexts.noUsers}</EmptyText>
        ) : (
          <ul className="list-unstyled mb-0">
            {list.map((user) => {
              const on = pending[user.id] ?? (target?.accessList ?? []).includes(user.id);
              return (
                <li key={user.id}>
                  <Form.Check
                    type="switch"
                    id={`record-access-${user.id}`}
                    label={user.fullname}
                    checked={on}
                    disabled={busy}
                    onChange={() => void toggle(user.id, !on)}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </Modal.Body>
      <ModalFooter onClose={onHide} />
    </Modal>
  );
}

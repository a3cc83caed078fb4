import { Form, Modal } from 'react-bootstrap';
import { useQuery } from '@tanstack/react-query';
import type { User } from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { getUserToken, userKeys } from '../../api/users';
import { ErrorAlert } from '../../components/alerts';
import { ModalFooter, ModalHeader } from '../../components/modal-parts';
import { LoadingText, statusTexts } from '../../components/status-text';

/** Admin: a user's JWT, for scripts that act as that user (docs/screens.md#user-tokens). */
export function UserTokenModal({ user, onHide }: { user: User | null; onHide: () => void }) {
  const token = useQuery({
    queryKey: [...userKeys.all, 'token', user?.id],
    queryFn: () => getUserToken(user!.id),
    enabled: !!user,
    staleTime: 0,
    gcTime: 0,
  });
  return (
    <Modal show={!!user} onHide={onHide} centered size="lg" aria-labelledby="user-token-title">
      <ModalHeader id="user-token-title">User&apos;s Java Web Token</ModalHeader>
      <Modal.Body>
        {user && <div className="mb-2 small text-secondary">{`${user.fullname} (${user.username})`}</div>}
        {token.isPending ? (
          <LoadingText text={statusTexts.loading} />
        ) : token.isError ? (
          <ErrorAlert message={errorMessage(token.error)} />
        ) : (
          <>
            <Form.Control
              as="textarea"
              rows={5}
              readOnly
              value={token.data}
              aria-label="User token"
              className="small font-monospace"
              onFocus={(e) => e.currentTarget.select()}
            />
            <div className="small text-warning mt-2">This token gives full access to the account: do not share it.</div>
          </>
        )}
      </Modal.Body>
      <ModalFooter onClose={onHide} />
    </Modal>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { Col, Row } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, isProtectedUsername, type User } from '@bathylog/shared';
import { authKeys } from '../../api/auth';
import { deleteAllNonSystemUsers, deleteUser, userKeys, useUsers } from '../../api/users';
import { ErrorAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { ImportDialog } from '../../components/import-dialog';
import { RoleGate } from '../../components/role-gate';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { importUserRecord } from './user-import';
import { UserForm } from './user-form';
import { UserPermissionsModal } from './user-permissions-modal';
import { UserTokenModal } from './user-token-modal';
import { UsersTable, UsersTableButtons, type UserRowActions } from './users-table';

/** Page sizes users know (docs/screens.md#page-sizes). */
export const systemUsersPageSize = 4;
export const usersPageSize = 6;

type Confirm = { kind: 'delete'; user: User } | { kind: 'deleteAll' } | null;

function UsersAdmin() {
  const auth = useAuth();
  const settings = useSettings();
  const queryClient = useQueryClient();
  const isAdmin = auth.hasRole('admin');
  const users = useUsers();
  useLoggedReadError(users.error, 'users');

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [formBlank, setFormBlank] = useState(true);
  const [tokenUser, setTokenUser] = useState<User | null>(null);
  const [permissionsUser, setPermissionsUser] = useState<User | null>(null);
  const [importing, setImporting] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const all = useMemo(() => users.data ?? [], [users.data]);
  const systemUsers = useMemo(() => all.filter((u) => u.system_user), [all]);
  const regularUsers = useMemo(() => all.filter((u) => !u.system_user), [all]);
  const selected = all.find((u) => u.id === selectedId) ?? null;

  // After a refresh the selection is picked again by id, and dropped when the user is gone.
  useEffect(() => {
    if (selectedId && users.isSuccess && !selected) setSelectedId(null);
  }, [selectedId, selected, users.isSuccess]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: userKeys.all }), [queryClient]);

  const actionsFor = useCallback(
    (user: User): UserRowActions => {
      const isSelf = user.id === auth.userId;
      // A cruise manager edits and deletes regular users that are not admins
      // (docs/screens.md#user-row-actions).
      const manageable = isAdmin || (!user.system_user && !user.roles.includes('admin'));
      return {
        edit: manageable,
        permissions: isAdmin && settings.useAccessControl,
        token: isAdmin,
        delete: manageable && !isSelf && !isProtectedUsername(user.username),
      };
    },
    [auth.userId, isAdmin, settings.useAccessControl],
  );

  const onSaved = useCallback(
    async ({ id }: { id: string; created: boolean }) => {
      await refresh();
      // The profile (header name, roles) follows changes to one's own account.
      if (id === auth.userId) await queryClient.invalidateQueries({ queryKey: authKeys.all });
    },
    [refresh, auth.userId, queryClient],
  );

  const {
    pending: confirm,
    ask: setConfirm,
    busy,
    error,
    clearError,
    confirm: runConfirmed,
  } = useConfirmedAction<NonNullable<Confirm>>(async (c) => {
    if (c.kind === 'delete') {
      await deleteUser(c.user.id);
      if (c.user.id === selectedId) setSelectedId(null);
    } else {
      await deleteAllNonSystemUsers();
      if (selected && !selected.system_user) setSelectedId(null);
    }
  }, refresh);

  const edit = (user: User) => {
    setSelectedId(user.id);
    window.scrollTo({ top: 0 });
  };

  const tableHandlers = {
    selectedId,
    actionsFor,
    onEdit: edit,
    onPermissions: setPermissionsUser,
    onToken: setTokenUser,
    onDelete: (user: User) => setConfirm({ kind: 'delete', user }),
  };

  return (
    <Row>
      <Col sm={12} md={7} lg={6} xl={{ span: 5, offset: 1 }}>
        <ErrorAlert message={error} onClose={clearError} />
        {isAdmin && (
          <UsersTable
            title="System Users"
            users={systemUsers}
            loading={users.isPending}
            pageSize={systemUsersPageSize}
            onExport={() => downloadJson('sealog_systemUserExport.json', systemUsers)}
            {...tableHandlers}
          />
        )}
        <UsersTable
          title="Users"
          users={regularUsers}
          loading={users.isPending}
          pageSize={usersPageSize}
          onExport={() => downloadJson('sealog_userExport.json', regularUsers)}
          onDeleteAll={() => setConfirm({ kind: 'deleteAll' })}
          {...tableHandlers}
        />
        <UsersTableButtons
          canImport={isAdmin}
          onImport={() => setImporting(true)}
          createDisabled={!selected && formBlank}
          onCreate={() => {
            setSelectedId(null);
            // A fresh create form: remount it even when already in create mode.
            setFormKey((k) => k + 1);
          }}
        />
      </Col>
      <Col sm={12} md={5} lg={6} xl={5}>
        <UserForm
          key={`${selected?.id ?? 'new'}-${formKey}`}
          user={selected}
          viewer={{ id: auth.userId, roles: auth.roles }}
          onSaved={onSaved}
          onBlankChange={setFormBlank}
        />
      </Col>

      <ConfirmModal
        show={confirm !== null}
        body={
          confirm?.kind === 'deleteAll'
            ? 'Are you sure you want to delete all non-system users?'
            : 'Are you sure you want to delete this user?'
        }
        busy={busy}
        onConfirm={() => void runConfirmed()}
        onHide={() => setConfirm(null)}
      />
      <UserTokenModal user={tokenUser} onHide={() => setTokenUser(null)} />
      {settings.useAccessControl && isAdmin && (
        <UserPermissionsModal user={permissionsUser} onHide={() => setPermissionsUser(null)} />
      )}
      {isAdmin && (
        <ImportDialog<Record<string, unknown>>
          show={importing}
          title="Import Users"
          onHide={() => setImporting(false)}
          importRecord={importUserRecord}
          onFinished={() => void refresh()}
        />
      )}
    </Row>
  );
}

/** /users: admins and cruise managers (docs/screens.md#users); "Loading..." until the roles are known. */
export function UsersScreen() {
  return (
    <RoleGate roles={capabilityRoles.cruiseManagement}>
      <UsersAdmin />
    </RoleGate>
  );
}

import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, isProtectedUsername, type User } from '@bathylog/shared';
import { authKeys } from '../../api/auth';
import { deleteAllNonSystemUsers, deleteUser, userKeys, useUsers } from '../../api/users';
import { useLiveInvalidation } from '../../api/use-realtime';
import {
  ManagementButtons,
  ManagementImport,
  ManagementLayout,
  useSystemSplitList,
} from '../../components/management-screen';
import { RoleGate } from '../../components/role-gate';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { importUserRecord } from './user-import';
import { UserForm } from './user-form';
import { UserPermissionsModal } from './user-permissions-modal';
import { UserTokenModal } from './user-token-modal';
import { UsersTable, type UserRowActions } from './users-table';

/** Page sizes users know (docs/screens.md#page-sizes). */
export const systemUsersPageSize = 4;
export const usersPageSize = 6;

const isSystemUser = (user: User) => user.system_user;

const userName = (user: User) => user.username;

function UsersAdmin() {
  const auth = useAuth();
  const settings = useSettings();
  const queryClient = useQueryClient();
  const isAdmin = auth.hasRole('admin');
  const users = useUsers();
  useLoggedReadError(users.error, 'users');
  // Changes by other admins (and registrations) show without a reload (docs/screens.md#users).
  useLiveInvalidation(['updateUsers'], [userKeys.all]);
  const [tokenUser, setTokenUser] = useState<User | null>(null);
  const [permissionsUser, setPermissionsUser] = useState<User | null>(null);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: userKeys.all }), [queryClient]);
  const list = useSystemSplitList({
    items: users.data,
    loaded: users.isSuccess,
    isSystem: isSystemUser,
    remove: (user) => deleteUser(user.id),
    removeAll: deleteAllNonSystemUsers,
    refresh,
    word: 'user',
    name: userName,
  });

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

  const tableHandlers = {
    selectedId: list.selectedId,
    actionsFor,
    onEdit: list.edit,
    onPermissions: setPermissionsUser,
    onToken: setTokenUser,
    onDelete: list.askDelete,
  };

  return (
    <ManagementLayout
      listWidth={{ md: 7, lg: 6 }}
      error={list.error}
      onCloseError={list.clearError}
      list={
        <>
          {isAdmin && (
            <UsersTable
              title="System Users"
              users={list.system}
              loading={users.isPending}
              error={users.error}
              pageSize={systemUsersPageSize}
              onExport={() => downloadJson('sealog_systemUserExport.json', list.system)}
              {...tableHandlers}
            />
          )}
          <UsersTable
            title="Users"
            users={list.regular}
            loading={users.isPending}
            error={users.error}
            pageSize={usersPageSize}
            onExport={() => downloadJson('sealog_userExport.json', list.regular)}
            onDeleteAll={isAdmin ? list.askDeleteAll : undefined}
            {...tableHandlers}
          />
          <ManagementButtons
            importLabel="Import"
            canImport={isAdmin}
            onImport={() => list.setImporting(true)}
            addLabel="Create User"
            addDisabled={list.addDisabled}
            onAdd={list.startAdd}
          />
        </>
      }
      form={
        <UserForm
          key={list.formKey}
          user={list.selected}
          viewer={{ id: auth.userId, roles: auth.roles }}
          onSaved={onSaved}
          onBlankChange={list.onBlankChange}
        />
      }
      modals={
        <>
          {list.confirmModal}
          <UserTokenModal user={tokenUser} onHide={() => setTokenUser(null)} />
          {settings.useAccessControl && isAdmin && (
            <UserPermissionsModal user={permissionsUser} onHide={() => setPermissionsUser(null)} />
          )}
          <ManagementImport
            canImport={isAdmin}
            show={list.importing}
            title="Import Users"
            onHide={() => list.setImporting(false)}
            importRecord={importUserRecord}
            onFinished={() => void refresh()}
          />
        </>
      }
    />
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

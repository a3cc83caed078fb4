import { matchesUserSearch, type User } from '@bathylog/shared';
import { IconButton } from '../../components/icon-button';
import { ManagedTable } from '../../components/search-table-card';
import { statusTexts } from '../../components/status-text';

/** Which row actions a viewer gets for a user (docs/screens.md#user-row-actions). */
export interface UserRowActions {
  edit: boolean;
  permissions: boolean;
  token: boolean;
  delete: boolean;
}

export interface UsersTableProps {
  /** "System Users" or "Users". */
  title: string;
  users: User[];
  loading: boolean;
  /** The read error, shown instead of "No users found!". */
  error?: unknown;
  pageSize: number;
  selectedId: string | null;
  actionsFor: (user: User) => UserRowActions;
  onEdit: (user: User) => void;
  onPermissions: (user: User) => void;
  onToken: (user: User) => void;
  onDelete: (user: User) => void;
  /** Saves the whole list as JSON. */
  onExport: () => void;
  /** Present on the regular table only: delete all non-system users. */
  onDeleteAll?: () => void;
}

/** One of the two user tables: search, export, rows with their actions, pagination. */
export function UsersTable({
  title,
  users,
  loading,
  error,
  pageSize,
  selectedId,
  actionsFor,
  onEdit,
  onPermissions,
  onToken,
  onDelete,
  onExport,
  onDeleteAll,
}: UsersTableProps) {
  return (
    <ManagedTable
      title={title}
      idPrefix="users-table"
      items={users}
      matches={matchesUserSearch}
      pageSize={pageSize}
      loading={loading}
      error={error}
      loadingText={statusTexts.loading}
      emptyText={statusTexts.noUsers}
      columns={['User Name', 'Full Name']}
      actionsWidth={100}
      onExport={onExport}
      deleteAll={onDeleteAll && { label: 'Delete all non-system users', onClick: onDeleteAll }}
      selectedId={selectedId}
      isDisabled={(user) => user.disabled}
      rowTestId={(user) => `user-row-${user.username}`}
      cells={(user) => [user.username, user.fullname]}
      actionsClassName="text-center text-nowrap"
      actions={(user) => {
        const actions = actionsFor(user);
        return (
          <>
            {actions.edit && (
              <IconButton
                icon="bi-pencil-fill"
                label={`Edit user ${user.username}`}
                className="text-warning"
                onClick={() => onEdit(user)}
              />
            )}
            {actions.permissions && (
              <IconButton
                icon="bi-person-fill-lock"
                label={`Access permissions of ${user.username}`}
                className="text-primary"
                onClick={() => onPermissions(user)}
              />
            )}
            {actions.token && (
              <IconButton
                icon="bi-eye-fill"
                label={`Show user's JWT token (${user.username})`}
                className="text-success"
                onClick={() => onToken(user)}
              />
            )}
            {actions.delete && (
              <IconButton
                icon="bi-trash-fill"
                label={`Delete user ${user.username}`}
                className="text-danger"
                onClick={() => onDelete(user)}
              />
            )}
          </>
        );
      }}
    />
  );
}

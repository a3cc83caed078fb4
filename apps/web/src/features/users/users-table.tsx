import { useEffect, useMemo, useState } from 'react';
import { Button, Card, Form, Table } from 'react-bootstrap';
import { matchesUserSearch, type User } from '@bathylog/shared';
import { Pagination, pageSlice } from '../../components/pagination';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { IconButton } from './icon-button';

/** Which row actions a viewer gets for a user (seed 000 §2, §6). */
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
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const matching = useMemo(() => users.filter((u) => matchesUserSearch(u, search)), [users, search]);
  const pageCount = Math.max(1, Math.ceil(matching.length / pageSize));

  // A delete or a narrower search can leave the page past the end.
  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);

  const rows = pageSlice(matching, Math.min(page, pageCount), pageSize);
  const headingId = `users-table-${title.replace(/\W+/g, '-').toLowerCase()}`;

  return (
    <Card className="mb-2" as="section" aria-labelledby={headingId}>
      <Card.Header className="d-flex align-items-center gap-2">
        <span id={headingId} className="me-auto">
          {title}
        </span>
        <Form.Control
          size="sm"
          type="search"
          placeholder="Search"
          aria-label={`Search ${title}`}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          style={{ maxWidth: 180 }}
        />
        {onDeleteAll && (
          <IconButton
            icon="bi-trash-fill"
            label="Delete all non-system users"
            className="text-danger"
            onClick={onDeleteAll}
          />
        )}
        <IconButton icon="bi-download" label={`Export ${title} as JSON`} className="text-primary" onClick={onExport} />
      </Card.Header>
      {loading ? (
        <LoadingText text={statusTexts.loading} />
      ) : matching.length === 0 ? (
        <EmptyText>{statusTexts.noUsers}</EmptyText>
      ) : (
        <Table size="sm" striped bordered className="mb-0 small" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th>User Name</th>
              <th>Full Name</th>
              <th className="text-center" style={{ width: 100 }}>
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => {
              const actions = actionsFor(user);
              const cellClass = [user.id === selectedId ? 'text-selected' : '', user.disabled ? 'text-strike' : '']
                .join(' ')
                .trim();
              return (
                <tr key={user.id} data-testid={`user-row-${user.username}`}>
                  <td className={cellClass}>{user.username}</td>
                  <td className={cellClass}>{user.fullname}</td>
                  <td className="text-center text-nowrap">
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
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {matching.length > pageSize && (
        <Card.Footer className="py-1">
          <Pagination
            page={Math.min(page, pageCount)}
            total={matching.length}
            pageSize={pageSize}
            onChange={setPage}
            className="mb-0"
            label={`${title} pages`}
          />
        </Card.Footer>
      )}
    </Card>
  );
}

/** Buttons below the tables. */
export function UsersTableButtons({
  canImport,
  onImport,
  createDisabled,
  onCreate,
}: {
  canImport: boolean;
  onImport: () => void;
  createDisabled: boolean;
  onCreate: () => void;
}) {
  return (
    <div className="d-flex justify-content-end gap-2 mb-3">
      {canImport && (
        <Button variant="outline-primary" size="sm" onClick={onImport}>
          Import
        </Button>
      )}
      <Button variant="outline-primary" size="sm" onClick={onCreate} disabled={createDisabled}>
        Create User
      </Button>
    </div>
  );
}

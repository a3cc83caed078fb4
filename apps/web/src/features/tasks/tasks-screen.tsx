import { capabilityRoles } from '@bathylog/shared';
import { useState } from 'react';
import { Card, Col, ListGroup, Row } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { useBackupStatus } from '../../api/backups';
import { wipeAllEvents } from '../../api/event-imports';
import { formatUtc } from '../../lib/format';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { ImportDialog } from '../../components/import-dialog';
import { RoleGate } from '../../components/role-gate';
import { importAuxDataRecord, importEventRecord } from './event-import';

type TaskId = 'importEvents' | 'importAuxData' | 'wipe';

/** The entries and their hover descriptions, in the words users know (docs/screens.md#tasks). */
export const tasks: { id: TaskId; name: string; description: string }[] = [
  {
    id: 'importEvents',
    name: 'Import Event Records',
    description: 'Add new event data records from a JSON-formatted file.',
  },
  {
    id: 'importAuxData',
    name: 'Import Aux Data Records',
    description: 'Add new aux data records from a JSON-formatted file.',
  },
  {
    id: 'wipe',
    name: 'Wipe Local Database',
    description: 'Delete all existing events and their aux data from the local database.',
  },
];

function Tasks() {
  const queryClient = useQueryClient();
  // The description shown on the right: the entry under the pointer or with keyboard focus.
  const [hovered, setHovered] = useState<TaskId | null>(null);
  const [open, setOpen] = useState<TaskId | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const described = tasks.find((t) => t.id === hovered);

  // Imports and the wipe change every event list: drop what is cached.
  const refreshEvents = () => {
    void queryClient.invalidateQueries({
      predicate: (q) => ['events', 'event_exports', 'event_aux_data'].includes(String(q.queryKey[0])),
    });
  };

  const wipe = async () => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      await wipeAllEvents();
      setMessage('All event and aux data records deleted.');
      refreshEvents();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setOpen(null);
    }
  };

  return (
    <Row>
      <Col sm={12} md={{ span: 6, offset: 1 }} lg={{ span: 5, offset: 1 }}>
        <Card>
          <Card.Header as="h2" className="h6 mb-0 py-2">
            Tasks
          </Card.Header>
          <ListGroup variant="flush" aria-label="Tasks">
            {tasks.map((task) => (
              <ListGroup.Item
                key={task.id}
                action
                as="button"
                type="button"
                aria-describedby={hovered === task.id ? 'task-description' : undefined}
                onMouseEnter={() => setHovered(task.id)}
                onFocus={() => setHovered(task.id)}
                onClick={() => {
                  setError('');
                  setMessage('');
                  setOpen(task.id);
                }}
              >
                {task.name}
              </ListGroup.Item>
            ))}
          </ListGroup>
        </Card>
        <LastBackup />
        <ErrorAlert message={error} onClose={() => setError('')} className="mt-3" />
        <SuccessAlert message={message} onClose={() => setMessage('')} className="mt-3" />
      </Col>
      <Col sm={12} md={5} lg={5}>
        {described && (
          <Card id="task-description" data-testid="task-description">
            <Card.Header as="h3" className="h6 mb-0 py-2">
              {described.name}
            </Card.Header>
            <Card.Body>{described.description}</Card.Body>
          </Card>
        )}
      </Col>

      <ImportDialog<Record<string, unknown>>
        show={open === 'importEvents'}
        title="Import Event Records"
        onHide={() => setOpen(null)}
        importRecord={importEventRecord}
        onFinished={refreshEvents}
      />
      <ImportDialog<Record<string, unknown>>
        show={open === 'importAuxData'}
        title="Import Aux Data Records"
        onHide={() => setOpen(null)}
        importRecord={importAuxDataRecord}
        onFinished={refreshEvents}
        showUpdated
      />
      <ConfirmModal
        show={open === 'wipe'}
        title="Confirm Wipe"
        body="Are you sure you want to wipe the local database?"
        busy={busy}
        onConfirm={() => void wipe()}
        onHide={() => setOpen(null)}
      />
    </Row>
  );
}

/** One line under the tasks: when the last backup was made (`bathylog backup` or scheduled). */
function LastBackup() {
  const { data } = useBackupStatus();
  if (!data) return null;
  const schedule = data.scheduled ? `scheduled every ${data.intervalMinutes} min` : 'no scheduled backups';
  return (
    <p className="small text-secondary mt-2 mb-0" data-testid="last-backup">
      Last backup: {data.lastBackupAt ? `${formatUtc(data.lastBackupAt)} UTC` : 'none yet'} ({schedule})
      {data.lastError && <span className="d-block text-danger">Last scheduled backup failed: {data.lastError}</span>}
    </p>
  );
}

/** /tasks: admins only; everyone else is sent home (docs/screens.md#role-gates). */
export function TasksScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly} redirectTo="/">
      <Tasks />
    </RoleGate>
  );
}

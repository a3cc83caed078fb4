import { useCallback, useState } from 'react';
import { Button, Col, Row } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type AuxManager } from '@bathylog/shared';
import { auxManagerKeys, mergeAuxHealth, updateAuxManager, useAuxManagers } from '../../api/aux-managers';
import { errorMessage, isApiError } from '../../api/client';
import { useSubscription } from '../../api/use-realtime';
import { ErrorAlert } from '../../components/alerts';
import { RoleGate } from '../../components/role-gate';
import { useLoggedReadError } from '../../lib/read-errors';
import { BackfillCard } from './backfill-card';
import { ManagerForm } from './manager-form';
import { ManagersTable } from './managers-table';

function readFailure(error: unknown): string {
  return error && !isApiError(error, 404) ? errorMessage(error) : '';
}

function SystemAdmin() {
  const queryClient = useQueryClient();
  const managers = useAuxManagers();
  useLoggedReadError(managers.error, 'aux data managers');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [toggleError, setToggleError] = useState('');
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: auxManagerKeys.all }), [queryClient]);

  // Each manager's health arrives live as it changes.
  useSubscription('auxManagers', (health) => {
    queryClient.setQueryData<AuxManager[]>(auxManagerKeys.list(), (list) => mergeAuxHealth(list, health));
  });

  const list = managers.data ?? [];
  const selected = list.find((m) => m.id === selectedId) ?? null;

  const toggle = async (m: AuxManager) => {
    setBusyId(m.id);
    setToggleError('');
    try {
      await updateAuxManager(m.id, { enabled: !m.enabled });
      await refresh();
    } catch (err) {
      setToggleError(errorMessage(err));
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Row className="g-3">
      <Col lg={8}>
        <ErrorAlert message={toggleError} onClose={() => setToggleError('')} />
        <ManagersTable
          managers={list}
          loading={managers.isPending}
          error={readFailure(managers.error)}
          selectedId={selectedId}
          busyId={busyId}
          onEdit={(m) => {
            setSelectedId(m.id);
            setFormKey((k) => k + 1);
          }}
          onToggle={(m) => void toggle(m)}
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
            Add Manager
          </Button>
        </div>
        <BackfillCard />
      </Col>
      <Col lg={4}>
        <ManagerForm
          key={`${selected?.id ?? 'new'}-${formKey}`}
          manager={selected}
          onSaved={refresh}
          onDeleted={() => {
            setSelectedId(null);
            void refresh();
          }}
        />
      </Col>
    </Row>
  );
}

/** /system: the built-in aux-data managers, admins only (docs/aux-managers.md#the-system-screen). */
export function SystemScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly} redirectTo="/">
      <SystemAdmin />
    </RoleGate>
  );
}

import { useCallback, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { WsChannel } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { deleteRecord, recordKeys, setRecordHidden, type RecordKind } from '../../../api/records';
import { useLiveInvalidation } from '../../../api/use-realtime';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ManagementButtons, ManagementImport, ManagementLayout } from '../../../components/management-screen';
import { ManagedTable, type ManagedTableProps } from '../../../components/search-table-card';
import { statusTexts } from '../../../components/status-text';
import { useAuth } from '../../../lib/auth';
import { useEntityNames } from '../../../lib/settings';
import { useSettings } from '../../../lib/settings';
import { importRecord } from '../lib/record-import';
import { ExecuteModal } from './execute-modal';
import { RecordPermissionsModal } from './record-permissions-modal';
import { RecordRowActions, type RecordRowInfo } from './record-row-actions';

export interface ManagedRecord extends RecordRowInfo {
  accessList?: readonly string[];
}

const channels: Record<RecordKind, readonly WsChannel[]> = {
  cruise: ['newCruises', 'updateCruises'],
  lowering: ['newLowerings', 'updateLowerings'],
};

/**
 * The state both management screens share (docs/screens.md#management-forms): the record in the form, the
 * pending delete, the execute / permissions / import modals, hide-show, and live refreshes from
 * the record channels (changes by another user appear without a reload).
 */
export function useRecordManagement(kind: RecordKind) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<ManagedRecord | null>(null);
  const [exporting, setExporting] = useState<ManagedRecord | null>(null);
  const [permissionsId, setPermissionsId] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: recordKeys.all }), [queryClient]);
  // Cruises and lowerings change each other (a hidden cruise hides its lowerings): refresh all.
  useLiveInvalidation([...channels.cruise, ...channels.lowering], [recordKeys.all], { enabled: !!auth.profile });

  const edit = useCallback((id: string) => {
    setSelectedId(id);
    setError('');
    window.scrollTo({ top: 0 });
  }, []);

  const startAdd = useCallback(() => {
    setSelectedId(null);
    setFormKey((k) => k + 1);
  }, []);

  const toggleHidden = useCallback(
    async (row: ManagedRecord) => {
      setError('');
      try {
        await setRecordHidden(kind, row.id, !row.hidden);
      } catch (err) {
        setError(errorMessage(err));
      }
      await refresh();
    },
    [kind, refresh],
  );

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    setError('');
    try {
      await deleteRecord(kind, deleting.id);
      if (deleting.id === selectedId) setSelectedId(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setDeleting(null);
      await refresh();
    }
  };

  return {
    kind,
    selectedId,
    setSelectedId,
    formKey,
    edit,
    startAdd,
    refresh,
    error,
    clearError: () => setError(''),
    toggleHidden,
    askDelete: setDeleting,
    deleting,
    busy,
    confirmDelete,
    exporting,
    askExport: setExporting,
    permissionsId,
    askPermissions: setPermissionsId,
    importing,
    setImporting,
  };
}

export type RecordManagement = ReturnType<typeof useRecordManagement>;

/** The modals of a management screen: delete confirmation, server export, permissions, import. */
export function RecordManagementModals({
  state,
  permissionsRecord,
}: {
  state: RecordManagement;
  /** The record whose permissions modal is open, as last read. */
  permissionsRecord: ManagedRecord | null;
}) {
  const names = useEntityNames();
  const settings = useSettings();
  const auth = useAuth();
  const isAdmin = auth.hasRole('admin');
  const kind = state.kind;
  const Word = kind === 'cruise' ? names.Cruise : names.Lowering;
  const word = kind === 'cruise' ? names.cruise : names.lowering;
  const Words = kind === 'cruise' ? names.Cruises : names.Lowerings;
  const exportMessage =
    kind === 'cruise'
      ? `Export data related to this ${names.cruise} and all associated ${names.lowerings} to files.`
      : `Export data related to this ${names.lowering} to files.`;

  return (
    <>
      <ConfirmModal
        show={state.deleting !== null}
        body={`Are you sure you want to delete this ${word}?`}
        busy={state.busy}
        onConfirm={() => void state.confirmDelete()}
        onHide={() => state.askDelete(null)}
      />
      {isAdmin && (
        <ExecuteModal
          target={state.exporting && { kind, id: state.exporting.id, humanId: state.exporting.humanId }}
          title={`Export ${Word}: ${state.exporting?.humanId ?? ''}`}
          message={exportMessage}
          onHide={() => state.askExport(null)}
        />
      )}
      {isAdmin && settings.useAccessControl && (
        <RecordPermissionsModal
          target={
            permissionsRecord && {
              kind,
              id: permissionsRecord.id,
              humanId: permissionsRecord.humanId,
              accessList: permissionsRecord.accessList ?? [],
            }
          }
          title={`${Word} Permissions`}
          onHide={() => state.askPermissions(null)}
          onChanged={state.refresh}
        />
      )}
      <ManagementImport
        canImport={isAdmin}
        show={state.importing}
        title={`Import ${Words}`}
        onHide={() => state.setImporting(false)}
        importRecord={(record) => importRecord(kind, record)}
        onFinished={() => void state.refresh()}
      />
    </>
  );
}

/** One record of a management screen: its row's identity, for the row actions and the modals. */
export interface RecordScreenConfig<T extends { id: string }> {
  state: RecordManagement;
  items: T[];
  loading: boolean;
  /** The list's read error, shown instead of the empty state. */
  error?: unknown;
  isAdmin: boolean;
  /** The records' table: search, page size, JSON export, the row's test id and details. */
  table: Pick<ManagedTableProps<T>, 'idPrefix' | 'matches' | 'pageSize' | 'onExport' | 'rowTestId'>;
  /** The ID column and the details column (small print) of a row. */
  cells: (item: T) => [ReactNode, ReactNode];
  managed: (item: T) => ManagedRecord;
  /** The row's clipboard text. */
  summary: (item: T) => string;
  /** The record in the form (null: add mode). */
  selected: T | null;
  form: ReactNode;
}

/**
 * A cruise or lowering management screen from its configuration: the table with each row's
 * actions, Import From File and Add (admins), the form, the modals.
 */
export function RecordManagementScreen<T extends { id: string }>(config: RecordScreenConfig<T>) {
  const { state, items, isAdmin, managed } = config;
  const names = useEntityNames();
  const settings = useSettings();
  const cruise = state.kind === 'cruise';
  const permissionsRecord = items.find((item) => item.id === state.permissionsId);
  return (
    <ManagementLayout
      listWidth={{ md: 7 }}
      error={state.error}
      onCloseError={state.clearError}
      list={
        <>
          <ManagedTable
            {...config.table}
            title={cruise ? names.Cruises : names.Lowerings}
            items={items}
            loading={config.loading}
            error={config.error}
            loadingText={statusTexts.loading}
            emptyText={`No ${cruise ? names.cruises : names.lowerings} found!`}
            columns={[cruise ? names.Cruise : names.Lowering, 'Details']}
            actionsWidth={90}
            selectedId={state.selectedId}
            smallDetails
            cells={config.cells}
            actions={(item) => (
              <RecordRowActions
                {...rowActionHandlers(state, managed(item))}
                word={cruise ? names.Cruise : names.Lowering}
                isAdmin={isAdmin}
                useAccessControl={settings.useAccessControl}
                summary={() => config.summary(item)}
              />
            )}
          />
          {isAdmin && (
            <ManagementButtons
              importLabel="Import From File"
              canImport
              onImport={() => state.setImporting(true)}
              addLabel={`Add ${cruise ? names.Cruise : names.Lowering}`}
              addDisabled={!config.selected}
              onAdd={state.startAdd}
            />
          )}
        </>
      }
      form={config.form}
      modals={
        <RecordManagementModals
          state={state}
          permissionsRecord={permissionsRecord ? managed(permissionsRecord) : null}
        />
      }
    />
  );
}

/** The row actions' handlers of one record on a management screen. */
function rowActionHandlers(state: RecordManagement, row: ManagedRecord) {
  return {
    row,
    onEdit: () => state.edit(row.id),
    onPermissions: () => state.askPermissions(row.id),
    onExport: () => state.askExport(row),
    onToggleHidden: () => void state.toggleHidden(row),
    onDelete: () => state.askDelete(row),
  };
}

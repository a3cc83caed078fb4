import { useMemo } from 'react';
import {
  capabilityRoles,
  formatDuration,
  formatListDateTime,
  loweringSummaryText,
  matchesLoweringSearch,
  type Lowering,
} from '@bathylog/shared';
import { useQuery } from '@tanstack/react-query';
import { getActiveCruise, getLoweringsOfCruise, getLowerings, recordKeys } from '../../api/records';
import { ManagementButtons, ManagementLayout } from '../../components/management-screen';
import { RoleGate } from '../../components/role-gate';
import { ManagedTable } from '../../components/search-table-card';
import { statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { useEntityNames, useSettings } from '../../lib/settings';
import {
  RecordManagementModals,
  rowActionHandlers,
  useRecordManagement,
  type ManagedRecord,
} from '../records/components/record-management';
import { RecordRowActions } from '../records/components/record-row-actions';
import { LoweringForm } from './lowering-form';
import { LoweringMilestones } from './lowering-milestones';

/** Seed 001 §9. */
export const loweringsPageSize = 6;

function managed(lowering: Lowering): ManagedRecord {
  return {
    id: lowering.id,
    humanId: lowering.lowering_id,
    hidden: lowering.lowering_hidden,
    accessList: lowering.lowering_access_list,
  };
}

/**
 * The lowerings this viewer manages: an admin all of them; a cruise manager those starting within
 * the cruise active now (seed 001 §4.2, §6).
 */
function useManagedLowerings(isAdmin: boolean) {
  return useQuery({
    queryKey: [...recordKeys.lowerings({ managed: isAdmin ? 'all' : 'active' })],
    queryFn: async ({ signal }) => {
      if (isAdmin) return getLowerings(undefined, signal);
      const cruise = await getActiveCruise(signal);
      return cruise ? getLoweringsOfCruise(cruise.id, signal) : [];
    },
  });
}

function LoweringsAdmin() {
  const auth = useAuth();
  const names = useEntityNames();
  const settings = useSettings();
  const isAdmin = auth.hasRole('admin');
  const state = useRecordManagement('lowering');
  const lowerings = useManagedLowerings(isAdmin);
  useLoggedReadError(lowerings.error, names.lowerings);
  const all = useMemo(() => lowerings.data ?? [], [lowerings.data]);
  const selected = all.find((l) => l.id === state.selectedId) ?? null;
  const permissionsRecord = all.find((l) => l.id === state.permissionsId);

  return (
    <ManagementLayout
      listWidth={{ md: 7 }}
      error={state.error}
      onCloseError={state.clearError}
      list={
        <>
          <ManagedTable
            title={names.Lowerings}
            idPrefix="lowerings-table"
            items={all}
            matches={matchesLoweringSearch}
            pageSize={loweringsPageSize}
            loading={lowerings.isPending}
            loadingText={statusTexts.loading}
            emptyText={`No ${names.lowerings} found!`}
            columns={[names.Lowering, 'Details']}
            actionsWidth={90}
            onExport={() => downloadJson('sealog_loweringExport.json', all)}
            selectedId={state.selectedId}
            rowTestId={(lowering) => `lowering-row-${lowering.lowering_id}`}
            smallDetails
            cells={(lowering) => {
              return [
                lowering.lowering_id,
                <>
                  <div>Location: {lowering.lowering_location}</div>
                  <div>Started: {formatListDateTime(lowering.start_ts)}</div>
                  <div>Duration: {formatDuration(Date.parse(lowering.stop_ts) - Date.parse(lowering.start_ts))}</div>
                  {lowering.lowering_hidden && <div className="text-secondary">Hidden</div>}
                </>,
              ];
            }}
            actions={(lowering) => (
              <RecordRowActions
                {...rowActionHandlers(state, managed(lowering))}
                word={names.Lowering}
                isAdmin={isAdmin}
                useAccessControl={settings.useAccessControl}
                summary={() => loweringSummaryText(lowering, names, settings.milestones)}
              />
            )}
          />
          {isAdmin && (
            <ManagementButtons
              importLabel="Import From File"
              canImport
              onImport={() => state.setImporting(true)}
              addLabel={`Add ${names.Lowering}`}
              addDisabled={!selected}
              onAdd={state.startAdd}
            />
          )}
        </>
      }
      form={
        (isAdmin || selected) && (
          <LoweringForm
            key={`${selected?.id ?? 'new'}-${state.formKey}`}
            lowering={selected}
            isAdmin={isAdmin}
            onSaved={state.refresh}
            milestonesButton={
              selected ? <LoweringMilestones loweringId={selected.id} onSaved={state.refresh} /> : undefined
            }
          />
        )
      }
      modals={
        <RecordManagementModals
          state={state}
          permissionsRecord={permissionsRecord ? managed(permissionsRecord) : null}
        />
      }
    />
  );
}

/** /lowerings: admins and cruise managers (seed 001 §2.3); "Loading..." until the roles are known. */
export function LoweringsScreen() {
  return (
    <RoleGate roles={capabilityRoles.cruiseManagement}>
      <LoweringsAdmin />
    </RoleGate>
  );
}

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
import { getLoweringsOfCruise, getLowerings, recordKeys } from '../../api/records';
import { ActiveCruiseChoice, useActiveCruise, type ActiveCruise } from '../../domain/records/components/active-cruise';
import { RoleGate } from '../../components/role-gate';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { useEntityNames, useSettings } from '../../lib/settings';
import {
  RecordManagementScreen,
  useRecordManagement,
  type ManagedRecord,
} from '../../domain/records/components/record-management';
import { readOnlyReason } from '../../domain/records/components/from-ship';
import type { MilestonesModalSlot } from '../../domain/lowerings/milestones-slot';
import { LoweringForm } from './lowering-form';
import { LoweringMilestones } from './lowering-milestones';

/** docs/screens.md#page-sizes */
export const loweringsPageSize = 6;

function managed(lowering: Lowering): ManagedRecord {
  return {
    id: lowering.id,
    humanId: lowering.lowering_id,
    hidden: lowering.lowering_hidden,
    accessList: lowering.lowering_access_list,
    readOnly: readOnlyReason(lowering.origin),
  };
}

/**
 * The lowerings this viewer manages: an admin all of them; a cruise manager those starting within
 * the cruise active now (docs/screens.md#lowerings).
 */
function useManagedLowerings(isAdmin: boolean, active: ActiveCruise) {
  const cruiseId = active.chosen?.id ?? null;
  return useQuery({
    queryKey: [...recordKeys.lowerings({ managed: isAdmin ? 'all' : 'active', ...(isAdmin ? {} : { cruiseId }) })],
    queryFn: async ({ signal }) => {
      if (isAdmin) return getLowerings(undefined, signal);
      return cruiseId ? getLoweringsOfCruise(cruiseId, signal) : [];
    },
    enabled: isAdmin || !active.isPending,
  });
}

function LoweringsAdmin({ milestonesModal }: { milestonesModal: MilestonesModalSlot }) {
  const auth = useAuth();
  const names = useEntityNames();
  const settings = useSettings();
  const isAdmin = auth.hasRole('admin');
  const state = useRecordManagement('lowering');
  // A cruise manager manages the lowerings of the cruise active now; of two overlapping ones, the
  // one chosen (docs/screens.md#overlapping-cruises).
  const active = useActiveCruise({ enabled: !isAdmin });
  const lowerings = useManagedLowerings(isAdmin, active);
  useLoggedReadError(lowerings.error, names.lowerings);
  const all = useMemo(() => lowerings.data ?? [], [lowerings.data]);
  const selected = all.find((l) => l.id === state.selectedId) ?? null;

  return (
    <>
      {!isAdmin && <ActiveCruiseChoice active={active} />}
      <RecordManagementScreen
        state={state}
        items={all}
        loading={lowerings.isPending}
        error={lowerings.error}
        isAdmin={isAdmin}
        table={{
          idPrefix: 'lowerings-table',
          matches: matchesLoweringSearch,
          pageSize: loweringsPageSize,
          // Only an admin exports the list as JSON (docs/roles-and-access.md).
          onExport: isAdmin ? () => downloadJson('sealog_loweringExport.json', all) : undefined,
          rowTestId: (lowering) => `lowering-row-${lowering.lowering_id}`,
        }}
        cells={(lowering) => {
          return [
            lowering.lowering_id,
            <>
              {lowering.lowering_additional_meta.lowering_name && (
                <div>Name: {lowering.lowering_additional_meta.lowering_name}</div>
              )}
              <div>Location: {lowering.lowering_location}</div>
              <div>Started: {formatListDateTime(lowering.start_ts)}</div>
              <div>Duration: {formatDuration(Date.parse(lowering.stop_ts) - Date.parse(lowering.start_ts))}</div>
              {lowering.lowering_hidden && <div className="text-secondary">Hidden</div>}
            </>,
          ];
        }}
        managed={managed}
        summary={(lowering) => loweringSummaryText(lowering, names, settings.milestones)}
        selected={selected}
        form={
          (isAdmin || selected) && (
            <LoweringForm
              key={`${selected?.id ?? 'new'}-${state.formKey}`}
              lowering={selected}
              isAdmin={isAdmin}
              onSaved={state.refresh}
              milestonesButton={
                selected ? (
                  <LoweringMilestones
                    loweringId={selected.id}
                    onSaved={state.refresh}
                    milestonesModal={milestonesModal}
                  />
                ) : undefined
              }
            />
          )
        }
      />
    </>
  );
}

/** /lowerings: admins and cruise managers (docs/screens.md#lowerings); "Loading..." until the roles are known. */
export function LoweringsScreen({ milestonesModal }: { milestonesModal: MilestonesModalSlot }) {
  return (
    <RoleGate roles={capabilityRoles.cruiseManagement}>
      <LoweringsAdmin milestonesModal={milestonesModal} />
    </RoleGate>
  );
}

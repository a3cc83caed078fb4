import { useMemo } from 'react';
import { Col, Row } from 'react-bootstrap';
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
import { ErrorAlert } from '../../components/alerts';
import { RoleGate } from '../../components/role-gate';
import { SearchTableCard, rowTextClass } from '../../components/search-table-card';
import { statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { useEntityNames, useSettings } from '../../lib/settings';
import {
  RecordManagementModals,
  RecordTableButtons,
  useRecordManagement,
  type ManagedRecord,
} from '../../domain/records/components/record-management';
import { RecordRowActions } from '../../domain/records/components/record-row-actions';
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
  };
}

/**
 * The lowerings this viewer manages: an admin all of them; a cruise manager those starting within
 * the cruise active now (docs/screens.md#lowerings).
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

function LoweringsAdmin({ milestonesModal }: { milestonesModal: MilestonesModalSlot }) {
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
    <Row>
      <Col sm={12} md={7} xl={{ span: 5, offset: 1 }}>
        <ErrorAlert message={state.error} onClose={state.clearError} />
        <SearchTableCard
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
          renderRow={(lowering) => {
            const cls = rowTextClass(lowering.id === state.selectedId, false);
            return (
              <tr key={lowering.id} data-testid={`lowering-row-${lowering.lowering_id}`}>
                <td className={cls}>{lowering.lowering_id}</td>
                <td className={`${cls} small`}>
                  <div>Location: {lowering.lowering_location}</div>
                  <div>Started: {formatListDateTime(lowering.start_ts)}</div>
                  <div>Duration: {formatDuration(Date.parse(lowering.stop_ts) - Date.parse(lowering.start_ts))}</div>
                  {lowering.lowering_hidden && <div className="text-secondary">Hidden</div>}
                </td>
                <td>
                  <RecordRowActions
                    row={managed(lowering)}
                    word={names.Lowering}
                    isAdmin={isAdmin}
                    useAccessControl={settings.useAccessControl}
                    onEdit={() => state.edit(lowering.id)}
                    onPermissions={() => state.askPermissions(lowering.id)}
                    onExport={() => state.askExport(managed(lowering))}
                    onToggleHidden={() => void state.toggleHidden(managed(lowering))}
                    onDelete={() => state.askDelete(managed(lowering))}
                    summary={() => loweringSummaryText(lowering, names, settings.milestones)}
                  />
                </td>
              </tr>
            );
          }}
        />
        <RecordTableButtons
          word={names.Lowering}
          isAdmin={isAdmin}
          adding={!selected}
          onImport={() => state.setImporting(true)}
          onAdd={state.startAdd}
        />
      </Col>
      <Col sm={12} md={5} xl={5}>
        {(isAdmin || selected) && (
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
        )}
      </Col>
      <RecordManagementModals state={state} permissionsRecord={permissionsRecord ? managed(permissionsRecord) : null} />
    </Row>
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

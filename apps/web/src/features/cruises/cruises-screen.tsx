import { useMemo } from 'react';
import { Col, Row } from 'react-bootstrap';
import { useQuery } from '@tanstack/react-query';
import { capabilityRoles, cruiseSummaryText, formatIsoDate, matchesCruiseSearch, type Cruise } from '@bathylog/shared';
import { getCruises, recordKeys } from '../../api/records';
import { ActiveCruiseChoice, useActiveCruise } from '../../domain/records/components/active-cruise';
import { RoleGate } from '../../components/role-gate';
import { LoadingText, statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { useLoggedReadError } from '../../lib/read-errors';
import { useEntityNames } from '../../lib/settings';
import {
  RecordManagementScreen,
  useRecordManagement,
  type ManagedRecord,
} from '../../domain/records/components/record-management';
import { readOnlyReason } from '../../domain/records/components/from-ship';
import { CruiseForm } from './cruise-form';

/** docs/screens.md#page-sizes */
export const cruisesPageSize = 6;

/** The words users know (docs/screens.md#cruises). */
export const noActiveCruiseMessage = 'Sorry... there are no currently active cruises for you to edit.';

function managed(cruise: Cruise): ManagedRecord {
  return {
    id: cruise.id,
    humanId: cruise.cruise_id,
    hidden: cruise.cruise_hidden,
    accessList: cruise.cruise_access_list,
    readOnly: readOnlyReason(cruise.origin),
  };
}

/** "Dates: start → end" of a row. */
function datesText(cruise: Cruise): string {
  return `${formatIsoDate(cruise.start_ts)} → ${formatIsoDate(cruise.stop_ts)}`;
}

function CruisesAdmin() {
  const names = useEntityNames();
  const state = useRecordManagement('cruise');
  const cruises = useQuery({ queryKey: recordKeys.cruises(), queryFn: ({ signal }) => getCruises(undefined, signal) });
  useLoggedReadError(cruises.error, names.cruises);
  const all = useMemo(() => cruises.data ?? [], [cruises.data]);
  const selected = all.find((c) => c.id === state.selectedId) ?? null;

  return (
    <RecordManagementScreen
      state={state}
      items={all}
      loading={cruises.isPending}
      error={cruises.error}
      isAdmin
      table={{
        idPrefix: 'cruises-table',
        matches: matchesCruiseSearch,
        pageSize: cruisesPageSize,
        onExport: () => downloadJson('sealog_cruisesExport.json', all, '\t'),
        rowTestId: (cruise) => `cruise-row-${cruise.cruise_id}`,
      }}
      cells={(cruise) => {
        const meta = cruise.cruise_additional_meta;
        return [
          cruise.cruise_id,
          <>
            {meta.cruise_name && <div>Name: {meta.cruise_name}</div>}
            {cruise.cruise_location && <div>Location: {cruise.cruise_location}</div>}
            <div>PI: {meta.cruise_pi}</div>
            <div>Vessel: {meta.cruise_vessel}</div>
            <div>Dates: {datesText(cruise)}</div>
            {cruise.cruise_hidden && <div className="text-secondary">Hidden</div>}
          </>,
        ];
      }}
      managed={managed}
      summary={(cruise) => cruiseSummaryText(cruise, names)}
      selected={selected}
      form={
        <CruiseForm
          key={`${selected?.id ?? 'new'}-${state.formKey}`}
          cruise={selected}
          isAdmin
          onSaved={state.refresh}
          others={all}
        />
      }
    />
  );
}

/** A cruise manager: only the form of the cruise active now (docs/screens.md#cruises). */
function ActiveCruiseEditor() {
  const names = useEntityNames();
  const state = useRecordManagement('cruise');
  const active = useActiveCruise();
  useLoggedReadError(active.error, names.cruises);
  if (active.isPending) return <LoadingText text={statusTexts.loading} />;
  if (!active.chosen) return <div className="text-center p-4 text-secondary">{noActiveCruiseMessage}</div>;
  return (
    <Row>
      <Col sm={12} md={{ span: 8, offset: 2 }} xl={{ span: 6, offset: 3 }}>
        <ActiveCruiseChoice active={active} />
        <CruiseForm key={active.chosen.id} cruise={active.chosen} isAdmin={false} onSaved={state.refresh} />
      </Col>
    </Row>
  );
}

function CruisesContent() {
  const auth = useAuth();
  return auth.hasRole('admin') ? <CruisesAdmin /> : <ActiveCruiseEditor />;
}

/** /cruises: admins (table and form) and cruise managers (the active cruise's form). */
export function CruisesScreen() {
  return (
    <RoleGate roles={capabilityRoles.cruiseManagement}>
      <CruisesContent />
    </RoleGate>
  );
}

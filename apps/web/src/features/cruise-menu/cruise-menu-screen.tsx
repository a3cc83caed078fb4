import { useEffect, useMemo, useRef, useState } from 'react';
import { Col, Row } from 'react-bootstrap';
import { useSearchParams } from 'wouter';
import { utcYear, type Cruise } from '@bathylog/shared';
import { recordKeys, useCruises, useLoweringsOfCruise } from '../../api/records';
import { useLiveInvalidation } from '../../api/use-realtime';
import { ErrorAlert } from '../../components/alerts';
import { selectionFromParams } from '../../domain/cruises/cruise-menu-link';
import { useLoggedReadError } from '../../lib/read-errors';
import { useEntityNames, useSettings } from '../../lib/settings';
import { CruiseCard } from './cruise-card';
import {
  activeCruise,
  groupByYear,
  inTimeOrder,
  latestLowering,
  rememberedSelection,
  rememberSelection,
} from './cruise-menu-state';
import { LoweringCard } from './lowering-card';
import { YearsColumn } from './years-column';
import './cruise-menu.css';

/**
 * /cruise_menu, the cruise and lowering browser (docs/screens.md#cruise-menu): years, the
 * selected cruise, the selected lowering. On arrival the selection of this tab's last visit is
 * restored, otherwise the cruise covering now and its latest lowering are selected. The server
 * decides what the user may see (hidden records, access lists).
 */
export function CruiseMenuScreen() {
  const settings = useSettings();
  const names = useEntityNames();
  const cruises = useCruises();
  useLoggedReadError(cruises.error, names.cruises);
  useLiveInvalidation(['newCruises', 'updateCruises', 'newLowerings', 'updateLowerings'], [recordKeys.all]);

  const list = useMemo(() => cruises.data ?? [], [cruises.data]);
  const years = useMemo(() => groupByYear(list), [list]);
  const [cruiseId, setCruiseId] = useState<string | null>(null);
  const [loweringId, setLoweringId] = useState<string | null>(null);
  const [openYear, setOpenYear] = useState<number | null>(null);
  const [exportError, setExportError] = useState('');
  /** Set on arrival: pick the latest lowering once the cruise's lowerings are read. */
  const pickLatest = useRef(false);
  const started = useRef(false);

  const cruise = list.find((c) => c.id === cruiseId) ?? null;
  const lowerings = useLoweringsOfCruise(cruise?.id ?? null);
  useLoggedReadError(lowerings.error, names.lowerings);
  const ordered = useMemo(() => inTimeOrder(lowerings.data ?? []), [lowerings.data]);
  const lowering = ordered.find((l) => l.id === loweringId) ?? null;

  // Arrival: the selection the link names (a review screen's breadcrumb), else this tab's last
  // selection, else the cruise covering now.
  const [params] = useSearchParams();
  const linked = useMemo(() => selectionFromParams(params), [params]);
  useEffect(() => {
    if (started.current || !cruises.isSuccess) return;
    started.current = true;
    const remembered = linked ?? rememberedSelection();
    const restored = remembered?.cruiseId ? list.find((c) => c.id === remembered.cruiseId) : undefined;
    const initial = restored ?? activeCruise(list);
    if (initial) {
      setCruiseId(initial.id);
      setOpenYear(utcYear(initial.start_ts));
      if (restored && remembered?.loweringId) setLoweringId(remembered.loweringId);
      else pickLatest.current = true;
    } else if (years.length > 0) {
      setOpenYear(years[0]!.year);
    }
  }, [cruises.isSuccess, list, years, linked]);

  useEffect(() => {
    if (!pickLatest.current || !lowerings.isSuccess) return;
    pickLatest.current = false;
    setLoweringId(latestLowering(lowerings.data)?.id ?? null);
  }, [lowerings.isSuccess, lowerings.data]);

  // A cruise that disappears (hidden, deleted, access removed) drops out of the selection.
  useEffect(() => {
    if (cruises.isSuccess && cruiseId && !cruise) {
      setCruiseId(null);
      setLoweringId(null);
    }
  }, [cruises.isSuccess, cruiseId, cruise]);

  useEffect(() => {
    if (started.current) rememberSelection({ cruiseId, loweringId });
  }, [cruiseId, loweringId]);

  const selectCruise = (c: Cruise) => {
    setCruiseId(c.id);
    setLoweringId(null);
    setExportError('');
    window.scrollTo({ top: 0 });
  };

  const openYearOf = (year: number) => {
    if (year === openYear) return;
    setOpenYear(year);
    setCruiseId(null);
    setLoweringId(null);
  };

  return (
    <div>
      <h1 className="h4">{settings.mainScreenHeader}</h1>
      <p style={{ whiteSpace: 'pre-wrap', textAlign: 'justify' }}>{settings.mainScreenText}</p>
      <ErrorAlert message={exportError} onClose={() => setExportError('')} />
      <Row>
        <Col sm={3} md={3} lg={2}>
          <YearsColumn
            years={years}
            loading={cruises.isPending}
            error={cruises.error}
            openYear={openYear}
            selectedCruiseId={cruiseId}
            onOpenYear={openYearOf}
            onSelectCruise={selectCruise}
          />
        </Col>
        <Col sm={4} md={4} lg={5}>
          {cruise && (
            <CruiseCard
              cruise={cruise}
              lowerings={ordered}
              loweringsLoading={lowerings.isPending}
              loweringsError={lowerings.error}
              selectedLoweringId={loweringId}
              onSelectLowering={setLoweringId}
              onExportError={setExportError}
            />
          )}
        </Col>
        <Col sm={5} md={5} lg={5}>
          {lowering && <LoweringCard lowering={lowering} onExportError={setExportError} />}
        </Col>
      </Row>
    </div>
  );
}

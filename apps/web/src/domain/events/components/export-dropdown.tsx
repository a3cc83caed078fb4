import { Fragment, useState } from 'react';
import { metricsPath, type GisFormat } from '@bathylog/shared';
import { Dropdown, OverlayTrigger, Tooltip } from 'react-bootstrap';
import { errorMessage, request } from '../../../api/client';
import { getEvents, type EventQuery } from '../api/events';
import { saveBlob } from '../../../lib/download';
import {
  exportFileName,
  exportItems,
  exportPath,
  exportPrefixFromTs,
  exportQuery,
  exportUnavailableReason,
  gisExportItems,
  gisExportRequest,
  type ExportItem,
  type ExportScope,
} from '../lib/export';

export interface ExportDropdownProps {
  /** The list's filter, without paging. */
  filter: EventQuery;
  /** A cruise's or lowering's events; none = all events. */
  scope?: ExportScope;
  /** File-name prefix (cruise_id, lowering_id); without it, the first event's time. */
  prefix?: string;
  /** Why exporting is not possible now (shown as the tooltip); null = possible. */
  disabledReason?: string | null;
  onError?: (message: string) => void;
  /** The toggle's element id; give each dropdown on a page its own (default "export-dropdown"). */
  id?: string;
  /** The toggle's accessible name (default "Export these events"). */
  label?: string;
}

/**
 * The download icon (tooltip "Export these events") with JSON and CSV items (docs/screens.md#event-exports).
 * Each file is read from the server's streaming export routes and saved under Sealog's name.
 */
export function ExportDropdown({
  filter,
  scope,
  prefix,
  disabledReason,
  onError,
  id = 'export-dropdown',
  label = 'Export these events',
}: ExportDropdownProps) {
  const [busy, setBusy] = useState(false);
  const disabled = busy || !!disabledReason;

  const run = async (item: ExportItem) => {
    setBusy(true);
    try {
      let name = prefix;
      if (!name) {
        // The first matching event's time, as in Sealog; aux records have none, so they use it too.
        const [first] = await getEvents({ ...filter, limit: 1 });
        name = exportPrefixFromTs(first?.ts ?? new Date());
      }
      const blob = await request<Blob>(exportPath(item, scope), {
        query: exportQuery(item, filter),
        responseType: 'blob',
      });
      saveBlob(blob, exportFileName(name, item));
    } catch (err) {
      onError?.(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const runGis = async (format: GisFormat) => {
    if (!scope) return;
    setBusy(true);
    try {
      const req = gisExportRequest(format, scope, filter, prefix ?? exportPrefixFromTs(new Date()));
      const blob = await request<Blob>(req.path, { query: req.query, responseType: 'blob' });
      saveBlob(blob, req.fileName);
    } catch (err) {
      onError?.(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  /** The dive metrics of the scope (docs/review-and-gis.md#dive-metrics) as a JSON or CSV file. */
  const runMetrics = async (format: 'json' | 'csv') => {
    if (!scope) return;
    setBusy(true);
    try {
      const path = metricsPath(scope.kind, scope.id, format === 'csv' ? 'csv' : undefined);
      const blob = await request<Blob>(path, { responseType: 'blob' });
      saveBlob(blob, `${prefix ?? exportPrefixFromTs(new Date())}_metrics.${format}`);
    } catch (err) {
      onError?.(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const tip = disabledReason ?? (busy ? 'Exporting…' : 'Export these events');
  return (
    <Dropdown align="end" className="d-inline-block">
      <OverlayTrigger placement="top" overlay={<Tooltip id={`${id}-tooltip`}>{tip}</Tooltip>}>
        {/* A disabled button fires no mouse events; the wrapper still shows why. */}
        <span
          className="d-inline-block"
          data-testid={id === 'export-dropdown' ? 'export-menu-wrapper' : `${id}-wrapper`}
          title={tip}
        >
          <Dropdown.Toggle
            variant="link"
            size="sm"
            className="p-0 text-primary"
            disabled={disabled}
            aria-label={label}
            id={id}
            style={disabled ? { pointerEvents: 'none' } : undefined}
          >
            <i className="bi bi-download" aria-hidden="true" />
          </Dropdown.Toggle>
        </span>
      </OverlayTrigger>
      <Dropdown.Menu>
        {(['json', 'csv'] as const).map((format, i) => (
          <Fragment key={format}>
            {i > 0 && <Dropdown.Divider />}
            <Dropdown.Header className="text-warning">
              {format === 'json' ? 'JSON format' : 'CSV format'}
            </Dropdown.Header>
            {exportItems
              .filter((item) => item.format === format)
              .map((item) => {
                const unavailable = exportUnavailableReason(item, filter);
                return (
                  <Dropdown.Item
                    key={`${item.format}-${item.kind}`}
                    as="button"
                    disabled={!!unavailable || busy}
                    title={unavailable ?? undefined}
                    aria-label={`${item.label} (${item.format.toUpperCase()})`}
                    onClick={() => void run(item)}
                  >
                    {item.label}
                  </Dropdown.Item>
                );
              })}
          </Fragment>
        ))}
        {scope && (
          <>
            <Dropdown.Divider />
            <Dropdown.Header className="text-warning">GIS format</Dropdown.Header>
            {gisExportItems.map((item) => (
              <Dropdown.Item
                key={item.format}
                as="button"
                disabled={busy}
                aria-label={item.label}
                onClick={() => void runGis(item.format)}
              >
                {item.label}
              </Dropdown.Item>
            ))}
            <Dropdown.Divider />
            <Dropdown.Header className="text-warning">Dive metrics</Dropdown.Header>
            {(['json', 'csv'] as const).map((format) => (
              <Dropdown.Item
                key={`metrics-${format}`}
                as="button"
                disabled={busy}
                aria-label={`Dive metrics (${format.toUpperCase()})`}
                onClick={() => void runMetrics(format)}
              >
                {format === 'json' ? 'Metrics (JSON)' : 'Metrics (CSV)'}
              </Dropdown.Item>
            ))}
          </>
        )}
      </Dropdown.Menu>
    </Dropdown>
  );
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Col, Row } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type EventTemplate } from '@bathylog/shared';
import {
  deleteAllNonSystemEventTemplates,
  deleteEventTemplate,
  eventTemplateKeys,
  useEventTemplates,
} from '../../api/event-templates';
import { ErrorAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { EventOptionsModal } from '../../components/event-options-modal';
import { ImportDialog } from '../../components/import-dialog';
import { RoleGate } from '../../components/role-gate';
import { statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { EventTemplateForm } from './event-template-form';
import { useLoggedReadError } from '../../lib/read-errors';
import { importTemplateRecord } from './template-list';
import { TemplatesTable, type TemplateRowActions } from './templates-table';

type Confirm = { kind: 'delete'; template: EventTemplate } | { kind: 'deleteAll' } | null;

function EventTemplatesAdmin() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const isAdmin = auth.hasRole('admin');
  const templates = useEventTemplates();
  useLoggedReadError(templates.error, 'event templates');

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [formBlank, setFormBlank] = useState(true);
  // Test opens the options modal as a preview; its Custom Time starts at the click.
  const [testing, setTesting] = useState<{ template: EventTemplate; ts: number } | null>(null);
  const [importing, setImporting] = useState(false);

  const all = useMemo(() => templates.data ?? [], [templates.data]);
  const systemTemplates = useMemo(() => all.filter((t) => t.system_template), [all]);
  const regularTemplates = useMemo(() => all.filter((t) => !t.system_template), [all]);
  const selected = all.find((t) => t.id === selectedId) ?? null;

  // After a refresh the selection is picked again by id, and dropped when the template is gone.
  useEffect(() => {
    if (selectedId && templates.isSuccess && !selected) setSelectedId(null);
  }, [selectedId, selected, templates.isSuccess]);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: eventTemplateKeys.all }), [queryClient]);

  // System templates are edited and deleted by admins only (docs/screens.md#event-templates).
  const actionsFor = useCallback(
    (t: EventTemplate): TemplateRowActions => ({
      edit: isAdmin || !t.system_template,
      delete: isAdmin || !t.system_template,
    }),
    [isAdmin],
  );

  const {
    pending: confirm,
    ask: setConfirm,
    busy,
    error,
    clearError,
    confirm: runConfirmed,
  } = useConfirmedAction<NonNullable<Confirm>>(async (c) => {
    if (c.kind === 'delete') {
      await deleteEventTemplate(c.template.id);
      if (c.template.id === selectedId) setSelectedId(null);
    } else {
      await deleteAllNonSystemEventTemplates();
      if (selected && !selected.system_template) setSelectedId(null);
    }
  }, refresh);

  const tableHandlers = {
    loading: templates.isPending,
    selectedId,
    actionsFor,
    onEdit: (t: EventTemplate) => {
      setSelectedId(t.id);
      window.scrollTo({ top: 0 });
    },
    onTest: (t: EventTemplate) => setTesting({ template: t, ts: Date.now() }),
    onDelete: (t: EventTemplate) => setConfirm({ kind: 'delete', template: t }),
  };

  return (
    <Row>
      <Col sm={12} md={6} lg={6} xl={{ span: 5, offset: 1 }}>
        <ErrorAlert message={error} onClose={clearError} />
        <TemplatesTable
          title="System Event Templates"
          templates={systemTemplates}
          emptyText={statusTexts.noEventTemplatesConsole}
          onExport={() => downloadJson('sealog_systemEventTemplateExport.json', systemTemplates)}
          {...tableHandlers}
        />
        <TemplatesTable
          title="Event Templates"
          templates={regularTemplates}
          emptyText={statusTexts.noEventTemplates}
          onExport={() => downloadJson('sealog_eventTemplateExport.json', regularTemplates)}
          onDeleteAll={() => setConfirm({ kind: 'deleteAll' })}
          {...tableHandlers}
        />
        <div className="d-flex justify-content-end gap-2 mb-3">
          {isAdmin && (
            <Button variant="outline-primary" size="sm" onClick={() => setImporting(true)}>
              Import From File
            </Button>
          )}
          <Button
            variant="outline-primary"
            size="sm"
            disabled={!selected && formBlank}
            onClick={() => {
              setSelectedId(null);
              setFormKey((k) => k + 1);
            }}
          >
            Add Event Template
          </Button>
        </div>
      </Col>
      <Col sm={12} md={6} lg={6} xl={5}>
        <EventTemplateForm
          key={`${selected?.id ?? 'new'}-${formKey}`}
          template={selected}
          isAdmin={isAdmin}
          onSaved={() => refresh()}
          onBlankChange={setFormBlank}
        />
      </Col>

      <ConfirmModal
        show={confirm !== null}
        body={
          confirm?.kind === 'deleteAll'
            ? 'Are you sure you want to delete all non-system event templates?'
            : 'Are you sure you want to delete this event template?'
        }
        busy={busy}
        onConfirm={() => void runConfirmed()}
        onHide={() => setConfirm(null)}
      />
      <EventOptionsModal
        preview
        template={testing?.template ?? null}
        eventTs={testing?.ts ?? 0}
        onCancel={() => setTesting(null)}
      />
      {isAdmin && (
        <ImportDialog<Record<string, unknown>>
          show={importing}
          title="Import Event Templates"
          onHide={() => setImporting(false)}
          importRecord={importTemplateRecord}
          onFinished={() => void refresh()}
        />
      )}
    </Row>
  );
}

/** /event_templates: admins, cruise managers and template managers (docs/screens.md#event-templates). */
export function EventTemplatesScreen() {
  return (
    <RoleGate roles={capabilityRoles.eventTemplates}>
      <EventTemplatesAdmin />
    </RoleGate>
  );
}

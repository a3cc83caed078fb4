import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type EventTemplate } from '@bathylog/shared';
import {
  deleteAllNonSystemEventTemplates,
  deleteEventTemplate,
  eventTemplateKeys,
  useEventTemplates,
} from '../../api/event-templates';
import { EventOptionsModal } from '../../components/event-options-modal';
import {
  ManagementButtons,
  ManagementImport,
  ManagementLayout,
  useSystemSplitList,
} from '../../components/management-screen';
import { RoleGate } from '../../components/role-gate';
import { statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { downloadJson } from '../../lib/download';
import { EventTemplateForm } from './event-template-form';
import { useLoggedReadError } from '../../lib/read-errors';
import { importTemplateRecord } from './template-list';
import { TemplatesTable, type TemplateRowActions } from './templates-table';

const isSystemTemplate = (t: EventTemplate) => t.system_template;
const templateName = (t: EventTemplate) => t.event_name;

function EventTemplatesAdmin() {
  const auth = useAuth();
  const queryClient = useQueryClient();
  const isAdmin = auth.hasRole('admin');
  const templates = useEventTemplates();
  useLoggedReadError(templates.error, 'event templates');
  // Test opens the options modal as a preview; its Custom Time starts at the click.
  const [testing, setTesting] = useState<{ template: EventTemplate; ts: number } | null>(null);

  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: eventTemplateKeys.all }), [queryClient]);
  const list = useSystemSplitList({
    items: templates.data,
    loaded: templates.isSuccess,
    isSystem: isSystemTemplate,
    remove: (t) => deleteEventTemplate(t.id),
    removeAll: deleteAllNonSystemEventTemplates,
    refresh,
    word: 'event template',
    name: templateName,
  });

  // System templates are edited and deleted by admins only (docs/screens.md#event-templates).
  const actionsFor = useCallback(
    (t: EventTemplate): TemplateRowActions => ({
      edit: isAdmin || !t.system_template,
      delete: isAdmin || !t.system_template,
    }),
    [isAdmin],
  );

  const tableHandlers = {
    loading: templates.isPending,
    error: templates.error,
    selectedId: list.selectedId,
    actionsFor,
    onEdit: list.edit,
    onTest: (t: EventTemplate) => setTesting({ template: t, ts: Date.now() }),
    onDelete: list.askDelete,
  };

  return (
    <ManagementLayout
      listWidth={{ md: 6, lg: 6 }}
      error={list.error}
      onCloseError={list.clearError}
      list={
        <>
          <TemplatesTable
            title="System Event Templates"
            templates={list.system}
            emptyText={statusTexts.noEventTemplatesConsole}
            onExport={() => downloadJson('sealog_systemEventTemplateExport.json', list.system)}
            {...tableHandlers}
          />
          <TemplatesTable
            title="Event Templates"
            templates={list.regular}
            emptyText={statusTexts.noEventTemplates}
            onExport={() => downloadJson('sealog_eventTemplateExport.json', list.regular)}
            onDeleteAll={isAdmin ? list.askDeleteAll : undefined}
            {...tableHandlers}
          />
          <ManagementButtons
            importLabel="Import From File"
            canImport={isAdmin}
            onImport={() => list.setImporting(true)}
            addLabel="Add Event Template"
            addDisabled={list.addDisabled}
            onAdd={list.startAdd}
          />
        </>
      }
      form={
        <EventTemplateForm
          key={list.formKey}
          template={list.selected}
          isAdmin={isAdmin}
          onSaved={() => refresh()}
          onBlankChange={list.onBlankChange}
        />
      }
      modals={
        <>
          {list.confirmModal}
          <EventOptionsModal
            preview
            template={testing?.template ?? null}
            eventTs={testing?.ts ?? 0}
            onCancel={() => setTesting(null)}
          />
          <ManagementImport
            canImport={isAdmin}
            show={list.importing}
            title="Import Event Templates"
            onHide={() => list.setImporting(false)}
            importRecord={importTemplateRecord}
            onFinished={() => void refresh()}
          />
        </>
      }
    />
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

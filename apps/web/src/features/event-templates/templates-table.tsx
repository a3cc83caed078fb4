import type { EventTemplate } from '@bathylog/shared';
import { IconButton } from '../../components/icon-button';
import { ManagedTable } from '../../components/search-table-card';
import { matchesTemplateSearch } from './template-list';

/** Templates per page in both tables (docs/screens.md#page-sizes). */
export const templatesPageSize = 8;

export interface TemplateRowActions {
  edit: boolean;
  delete: boolean;
}

export interface TemplatesTableProps {
  /** "System Event Templates" or "Event Templates". */
  title: string;
  templates: EventTemplate[];
  loading: boolean;
  /** The read error, shown instead of the empty state. */
  error?: unknown;
  /** Shown when no template is listed (or none matches the search). */
  emptyText: string;
  selectedId: string | null;
  actionsFor: (template: EventTemplate) => TemplateRowActions;
  onEdit: (template: EventTemplate) => void;
  onTest: (template: EventTemplate) => void;
  onDelete: (template: EventTemplate) => void;
  onExport: () => void;
  /** The regular table only: delete all non-system templates. */
  onDeleteAll?: () => void;
}

/** One of the two template tables: search, export, rows with their actions, pagination. */
export function TemplatesTable({
  title,
  templates,
  loading,
  error,
  emptyText,
  selectedId,
  actionsFor,
  onEdit,
  onTest,
  onDelete,
  onExport,
  onDeleteAll,
}: TemplatesTableProps) {
  return (
    <ManagedTable
      className="mb-3"
      title={title}
      idPrefix="templates-table"
      items={templates}
      matches={matchesTemplateSearch}
      pageSize={templatesPageSize}
      loading={loading}
      error={error}
      emptyText={emptyText}
      columns={['Button Name', 'Event Value']}
      actionsWidth={90}
      onExport={onExport}
      deleteAll={onDeleteAll && { label: 'Delete all non-system event templates', onClick: onDeleteAll }}
      selectedId={selectedId}
      isDisabled={(template) => template.disabled}
      rowTestId={(template) => `template-row-${template.id}`}
      cells={(template) => [template.event_name, template.event_value]}
      actionsClassName="text-center text-nowrap"
      actions={(template) => {
        const actions = actionsFor(template);
        return (
          <>
            {actions.edit && (
              <IconButton
                icon="bi-pencil-fill"
                label={`Edit template ${template.event_name}`}
                className="text-warning"
                onClick={() => onEdit(template)}
              />
            )}
            <IconButton
              icon="bi-flask-fill"
              label={`Test template ${template.event_name}`}
              className="text-success"
              onClick={() => onTest(template)}
            />
            {actions.delete && (
              <IconButton
                icon="bi-trash-fill"
                label={`Delete template ${template.event_name}`}
                className="text-danger"
                onClick={() => onDelete(template)}
              />
            )}
          </>
        );
      }}
    />
  );
}

import { useEffect, useMemo, useState } from 'react';
import { Card, Form, Table } from 'react-bootstrap';
import type { EventTemplate } from '@bathylog/shared';
import { Pagination, pageSlice } from '../../components/pagination';
import { EmptyText, LoadingText } from '../../components/status-text';
import { IconButton } from './icon-button';
import { matchesTemplateSearch } from './template-list';

/** Templates per page in both tables (seed 000 §9). */
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
  emptyText,
  selectedId,
  actionsFor,
  onEdit,
  onTest,
  onDelete,
  onExport,
  onDeleteAll,
}: TemplatesTableProps) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const matching = useMemo(() => templates.filter((t) => matchesTemplateSearch(t, search)), [templates, search]);
  const pageCount = Math.max(1, Math.ceil(matching.length / templatesPageSize));

  useEffect(() => {
    if (page > pageCount) setPage(pageCount);
  }, [page, pageCount]);

  const current = Math.min(page, pageCount);
  const rows = pageSlice(matching, current, templatesPageSize);
  const headingId = `templates-table-${title.replace(/\W+/g, '-').toLowerCase()}`;

  return (
    <Card className="mb-3" as="section" aria-labelledby={headingId}>
      <Card.Header className="d-flex align-items-center gap-2">
        <span id={headingId} className="me-auto">
          {title}
        </span>
        <Form.Control
          size="sm"
          type="search"
          placeholder="Search"
          aria-label={`Search ${title}`}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          style={{ maxWidth: 180 }}
        />
        {onDeleteAll && (
          <IconButton
            icon="bi-trash-fill"
            label="Delete all non-system event templates"
            className="text-danger"
            onClick={onDeleteAll}
          />
        )}
        <IconButton icon="bi-download" label={`Export ${title} as JSON`} className="text-primary" onClick={onExport} />
      </Card.Header>
      {loading ? (
        <LoadingText />
      ) : matching.length === 0 ? (
        <EmptyText>{emptyText}</EmptyText>
      ) : (
        <Table size="sm" striped bordered className="mb-0 small" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th>Button Name</th>
              <th>Event Value</th>
              <th className="text-center" style={{ width: 90 }}>
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((template) => {
              const actions = actionsFor(template);
              const cellClass = [
                template.id === selectedId ? 'text-selected' : '',
                template.disabled ? 'text-strike' : '',
              ]
                .join(' ')
                .trim();
              return (
                <tr key={template.id} data-testid={`template-row-${template.id}`}>
                  <td className={cellClass}>{template.event_name}</td>
                  <td className={cellClass}>{template.event_value}</td>
                  <td className="text-center text-nowrap">
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
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      {matching.length > templatesPageSize && (
        <Card.Footer className="py-1">
          <Pagination
            page={current}
            total={matching.length}
            pageSize={templatesPageSize}
            onChange={setPage}
            className="mb-0"
            label={`${title} pages`}
          />
        </Card.Footer>
      )}
    </Card>
  );
}

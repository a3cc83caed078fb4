import { useState, type FormEvent } from 'react';
import { Button, Col, Form, Row, Table } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import {
  capabilityRoles,
  checklistItemsProblem,
  checklistPhaseLabels,
  checklistPhases,
  customVarNames,
  describeCondition,
  type Checklist,
  type ChecklistCondition,
  type ChecklistConditionType,
  type ChecklistItemInput,
  type ChecklistPhase,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { ConfirmModal } from '../../components/confirm-modal';
import { EditDeleteButtons } from '../../components/icon-button';
import { ListCard } from '../../components/list-card';
import { ManagementLayout } from '../../components/management-screen';
import { FormCard } from '../../components/record-form';
import { RoleGate } from '../../components/role-gate';
import { EmptyText } from '../../components/status-text';
import {
  checklistKeys,
  createChecklist,
  deleteChecklist,
  updateChecklist,
  useChecklists,
} from '../../domain/checklists/checklists-api';
import { useLoggedReadError } from '../../lib/read-errors';
import { TableHead } from '../../components/table-head';

const conditionTypeLabels: Record<ChecklistConditionType, string> = {
  custom_var: 'Custom var has a value',
  aux_fresh: 'Data source is fresh',
  free_disk: 'Free disk space',
};

function defaultCondition(type: ChecklistConditionType): ChecklistCondition {
  switch (type) {
    case 'custom_var':
      return { type, name: customVarNames.asnapStatus, equals: 'On' };
    case 'aux_fresh':
      return { type, data_source: 'vehicleRealtimeNavData', max_age_seconds: 60 };
    case 'free_disk':
      return { type, min_bytes: 10_000_000_000 };
  }
}

interface Draft {
  id: string | null;
  name: string;
  phase: ChecklistPhase;
  order: number;
  items: ChecklistItemInput[];
}

const blankDraft = (): Draft => ({
  id: null,
  name: '',
  phase: 'pre_dive',
  order: 0,
  items: [{ label: '', kind: 'manual' }],
});

/** One small labelled input of the condition editor. */
function SmallField({
  id,
  label,
  value,
  onChange,
  ...input
}: {
  id: string;
  label: string;
  value: string | number;
  onChange: (value: string) => void;
  type?: 'number';
  min?: number;
  step?: 'any';
}) {
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label className="small mb-0">{label}</Form.Label>
      <Form.Control size="sm" value={value} onChange={(e) => onChange(e.target.value)} {...input} />
    </Form.Group>
  );
}

/** The condition fields of an automatic item. */
function ConditionFields({
  index,
  condition,
  onChange,
}: {
  index: number;
  condition: ChecklistCondition;
  onChange: (c: ChecklistCondition) => void;
}) {
  const id = (name: string) => `checklist-item-${index}-${name}`;
  return (
    <>
      <Form.Group className="mb-2" controlId={id('condition')}>
        <Form.Label className="small mb-0">Condition</Form.Label>
        <Form.Select
          size="sm"
          value={condition.type}
          onChange={(e) => onChange(defaultCondition(e.target.value as ChecklistConditionType))}
        >
          {(Object.keys(conditionTypeLabels) as ChecklistConditionType[]).map((t) => (
            <option key={t} value={t}>
              {conditionTypeLabels[t]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {condition.type === 'custom_var' && (
        <Row className="g-2">
          <Col>
            <SmallField
              id={id('var-name')}
              label="Custom var"
              value={condition.name}
              onChange={(v) => onChange({ ...condition, name: v })}
            />
          </Col>
          <Col>
            <SmallField
              id={id('var-equals')}
              label="Equals"
              value={condition.equals}
              onChange={(v) => onChange({ ...condition, equals: v })}
            />
          </Col>
        </Row>
      )}
      {condition.type === 'aux_fresh' && (
        <Row className="g-2">
          <Col>
            <SmallField
              id={id('data-source')}
              label="Data source"
              value={condition.data_source}
              onChange={(v) => onChange({ ...condition, data_source: v })}
            />
          </Col>
          <Col>
            <SmallField
              id={id('max-age')}
              label="Newer than (seconds)"
              value={condition.max_age_seconds}
              onChange={(v) => onChange({ ...condition, max_age_seconds: Math.round(Number(v)) })}
              type="number"
              min={1}
            />
          </Col>
        </Row>
      )}
      {condition.type === 'free_disk' && (
        <SmallField
          id={id('min-gb')}
          label="At least (GB free)"
          value={condition.min_bytes / 1e9}
          onChange={(v) => onChange({ ...condition, min_bytes: Math.round(Number(v) * 1e9) })}
          type="number"
          min={0}
          step="any"
        />
      )}
    </>
  );
}

/** One item of the editor: label, manual/automatic, the condition of an automatic one. */
function ItemEditor({
  index,
  item,
  onChange,
  onRemove,
}: {
  index: number;
  item: ChecklistItemInput;
  onChange: (item: ChecklistItemInput) => void;
  onRemove: () => void;
}) {
  return (
    <fieldset className="border rounded p-2 mb-2" data-testid={`checklist-item-editor-${index}`}>
      <legend className="fs-6 mb-1 float-none w-auto px-1">Item {index + 1}</legend>
      <Form.Group className="mb-2" controlId={`checklist-item-${index}-label`}>
        <Form.Label className="small mb-0">Label</Form.Label>
        <Form.Control size="sm" value={item.label} onChange={(e) => onChange({ ...item, label: e.target.value })} />
      </Form.Group>
      <Form.Group className="mb-2" controlId={`checklist-item-${index}-kind`}>
        <Form.Label className="small mb-0">Kind</Form.Label>
        <Form.Select
          size="sm"
          value={item.kind}
          onChange={(e) => {
            const kind = e.target.value as 'manual' | 'auto';
            const { condition: _dropped, ...rest } = item;
            onChange(
              kind === 'auto' ? { ...rest, kind, condition: defaultCondition('custom_var') } : { ...rest, kind },
            );
          }}
        >
          <option value="manual">Manual (ticked by a person)</option>
          <option value="auto">Automatic (a condition on live data)</option>
        </Form.Select>
      </Form.Group>
      {item.kind === 'auto' && item.condition && (
        <ConditionFields
          index={index}
          condition={item.condition}
          onChange={(condition) => onChange({ ...item, condition })}
        />
      )}
      <div className="d-flex justify-content-end">
        <Button size="sm" variant="outline-danger" onClick={onRemove}>
          Remove Item<span className="visually-hidden"> {index + 1}</span>
        </Button>
      </div>
    </fieldset>
  );
}

function ChecklistForm({ draft, onSaved }: { draft: Draft; onSaved: (message: string) => Promise<unknown> }) {
  const [value, setValue] = useState<Draft>(draft);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const title = value.id ? 'Update Checklist' : 'Add Checklist';
  const setItem = (i: number, item: ChecklistItemInput) =>
    setValue((v) => ({ ...v, items: v.items.map((it, j) => (j === i ? item : it)) }));

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const items = value.items.map((i) => ({ ...i, label: i.label.trim() }));
    if (value.name.trim() === '') return setError('A checklist needs a name.');
    if (items.some((i) => i.label === '')) return setError('Every item needs a label.');
    const problem = checklistItemsProblem(items);
    if (problem) return setError(problem);
    setBusy(true);
    setError('');
    try {
      const body = { name: value.name.trim(), phase: value.phase, order: value.order, items };
      if (value.id) await updateChecklist(value.id, body);
      else await createChecklist(body);
      await onSaved(value.id ? `Checklist ${body.name} updated.` : `Checklist ${body.name} added.`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormCard title={title} onSubmit={async (e) => void (await submit(e as FormEvent | undefined))}>
      <ErrorAlert message={error} onClose={() => setError('')} />
      <Form.Group className="mb-2" controlId="checklist-name">
        <Form.Label>Name</Form.Label>
        <Form.Control size="sm" value={value.name} onChange={(e) => setValue({ ...value, name: e.target.value })} />
      </Form.Group>
      <Row className="g-2 mb-3">
        <Col>
          <Form.Group controlId="checklist-phase">
            <Form.Label>Phase</Form.Label>
            <Form.Select
              size="sm"
              value={value.phase}
              onChange={(e) => setValue({ ...value, phase: e.target.value as ChecklistPhase })}
            >
              {checklistPhases.map((p) => (
                <option key={p} value={p}>
                  {checklistPhaseLabels[p]}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col>
          <Form.Group controlId="checklist-order">
            <Form.Label>Order</Form.Label>
            <Form.Control
              size="sm"
              type="number"
              min={0}
              value={value.order}
              onChange={(e) => setValue({ ...value, order: Math.max(0, Math.round(Number(e.target.value))) })}
            />
          </Form.Group>
        </Col>
      </Row>
      <h3 className="h6">Items</h3>
      {value.items.length === 0 && <EmptyText>No items yet: add one.</EmptyText>}
      {value.items.map((item, i) => (
        <ItemEditor
          key={i}
          index={i}
          item={item}
          onChange={(next) => setItem(i, next)}
          onRemove={() => setValue((v) => ({ ...v, items: v.items.filter((_, j) => j !== i) }))}
        />
      ))}
      <div className="d-flex justify-content-between">
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => setValue((v) => ({ ...v, items: [...v.items, { label: '', kind: 'manual' }] }))}
        >
          Add Item
        </Button>
        <Button size="sm" type="submit" disabled={busy}>
          {value.id ? 'Update' : 'Create'}
        </Button>
      </div>
    </FormCard>
  );
}

function ChecklistsTable({
  checklists,
  loading,
  onEdit,
  onDelete,
}: {
  checklists: Checklist[];
  loading: boolean;
  onEdit: (c: Checklist) => void;
  onDelete: (c: Checklist) => void;
}) {
  return (
    <ListCard
      title="Checklists"
      titleId="checklists-title"
      loading={loading}
      empty={checklists.length === 0}
      emptyText="No checklists found! Add one with the form."
    >
      <Table responsive size="sm" className="mb-0 align-middle" aria-labelledby="checklists-title">
        <TableHead columns={['Name', 'Phase', 'Items']} />
        <tbody>
          {checklists.map((c) => (
            <tr key={c.id} data-testid={`checklist-row-${c.name}`}>
              <td>{c.name}</td>
              <td>{checklistPhaseLabels[c.phase]}</td>
              <td className="small">
                <ul className="list-unstyled mb-0">
                  {c.items.map((i) => (
                    <li key={i.id}>
                      {i.label}
                      {i.kind === 'auto' && (
                        <span className="text-body-secondary"> (automatic: {describeCondition(i.condition)})</span>
                      )}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="text-nowrap">
                <EditDeleteButtons
                  record={`checklist ${c.name}`}
                  onEdit={() => onEdit(c)}
                  onDelete={() => onDelete(c)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </ListCard>
  );
}

function ChecklistsAdmin() {
  const queryClient = useQueryClient();
  const checklists = useChecklists();
  useLoggedReadError(checklists.error, 'checklists');
  const [draft, setDraft] = useState<Draft>(blankDraft);
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<Checklist | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: checklistKeys.all });
  const edit = (next: Draft) => {
    setDraft(next);
    setFormKey((k) => k + 1);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteChecklist(deleting.id);
      if (draft.id === deleting.id) edit(blankDraft());
      await refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <ManagementLayout
      listWidth={{ md: 6 }}
      error={error || (checklists.error ? `Checklists could not be read: ${errorMessage(checklists.error)}` : '')}
      onCloseError={() => setError('')}
      list={
        <>
          <SuccessAlert message={saved} onClose={() => setSaved('')} />
          <ChecklistsTable
            checklists={checklists.data ?? []}
            loading={checklists.isPending}
            onEdit={(c) => edit({ id: c.id, name: c.name, phase: c.phase, order: c.order, items: c.items })}
            onDelete={setDeleting}
          />
          <div className="d-flex justify-content-end mb-3">
            <Button size="sm" variant="outline-primary" disabled={draft.id === null} onClick={() => edit(blankDraft())}>
              Add Checklist
            </Button>
          </div>
        </>
      }
      form={
        <ChecklistForm
          key={formKey}
          draft={draft}
          onSaved={async (message) => {
            setSaved(message);
            edit(blankDraft());
            await refresh();
          }}
        />
      }
      modals={
        <ConfirmModal
          show={deleting !== null}
          title="Confirm Delete"
          body={`Are you sure you want to delete the checklist ${deleting?.name ?? ''}? Runs not yet complete are removed; completed ones stay in the history.`}
          confirmLabel="Delete"
          busy={busy}
          onConfirm={() => void remove()}
          onHide={() => setDeleting(null)}
        />
      }
    />
  );
}

/** /checklists: admins define the checklists every lowering runs (docs/checklists.md#in-the-web-client). */
export function ChecklistsScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly}>
      <ChecklistsAdmin />
    </RoleGate>
  );
}

import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Form, ListGroup, Modal } from 'react-bootstrap';
import {
  checklistItemSatisfied,
  checklistMessages,
  checklistPhaseLabels,
  checklistSystemActor,
  describeCondition,
  type ChecklistRun,
  type ChecklistRunItem,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { ErrorAlert } from '../../components/alerts';
import { ModalFooter, ModalHeader } from '../../components/modal-parts';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { formatUtc } from '../../lib/format';
import { tickChecklistItem, useChecklistRuns, useStoreRun } from './checklists-api';

/** Who ticked or skipped an item, and when (empty while open). */
function ItemTrail({ item }: { item: ChecklistRunItem }) {
  if (item.state === 'open' || !item.by) return null;
  const who = item.by === checklistSystemActor ? 'the server (condition held)' : item.by;
  return (
    <div className="small text-body-secondary">
      {item.state === 'skipped' ? 'Skipped' : 'Done'} by {who}
      {item.at ? ` at ${formatUtc(item.at)}` : ''}
      {item.state === 'skipped' && item.reason ? ` — reason: ${item.reason}` : ''}
    </div>
  );
}

/** An automatic item's live value: colour and words (never colour alone). */
function ConditionStatus({ item }: { item: ChecklistRunItem }) {
  if (item.ok === undefined) return null;
  return item.ok ? (
    <Badge bg="success" text="dark" data-testid="condition-status">
      <i className="bi bi-check-circle-fill me-1" aria-hidden="true" />
      Condition holds
    </Badge>
  ) : (
    <Badge bg="danger" data-testid="condition-status">
      <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />
      Condition not met
    </Badge>
  );
}

function RunItem({
  run,
  item,
  busy,
  pending,
  onTick,
  onSkip,
}: {
  run: ChecklistRun;
  item: ChecklistRunItem;
  busy: boolean;
  /** The state a tick sent for this item asks for, until the server answers. */
  pending: 'done' | 'open' | undefined;
  onTick: (item: ChecklistRunItem, state: 'done' | 'open') => void;
  onSkip: (item: ChecklistRunItem) => void;
}) {
  const open = run.state === 'open';
  const id = `checklist-${run.id}-${item.id}`;
  return (
    <ListGroup.Item data-testid={`checklist-item-${item.id}`} className="d-flex align-items-start gap-2">
      <div className="flex-grow-1">
        {item.kind === 'manual' ? (
          <>
            <Form.Check
              id={id}
              label={item.label}
              checked={(pending ?? item.state) === 'done'}
              disabled={!open || busy || pending !== undefined || item.state === 'skipped'}
              onChange={(e) => onTick(item, e.target.checked ? 'done' : 'open')}
            />
            {pending !== undefined && (
              <div className="small text-body-secondary" role="status">
                Saving…
              </div>
            )}
          </>
        ) : (
          <div>
            <span className={item.state === 'skipped' ? 'text-decoration-line-through' : ''}>{item.label}</span>{' '}
            <ConditionStatus item={item} />
            <div className="small text-body-secondary">Automatic: {describeCondition(item.condition)}</div>
          </div>
        )}
        <ItemTrail item={item} />
      </div>
      {open && item.state === 'skipped' && (
        <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => onTick(item, 'open')}>
          Undo skip<span className="visually-hidden"> of {item.label}</span>
        </Button>
      )}
      {open && item.state === 'open' && (
        <Button size="sm" variant="outline-secondary" disabled={busy} onClick={() => onSkip(item)}>
          Skip<span className="visually-hidden"> {item.label}</span>
        </Button>
      )}
    </ListGroup.Item>
  );
}

/** The reason dialog of a skip: a reason is needed (the server says so too). */
function SkipDialog({
  item,
  onSubmit,
  onHide,
}: {
  item: ChecklistRunItem | null;
  onSubmit: (reason: string) => Promise<void>;
  onHide: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (reason.trim() === '') {
      setError(checklistMessages.reasonNeeded);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(reason.trim());
      setReason('');
      setError('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const hide = () => {
    setReason('');
    setError('');
    onHide();
  };
  return (
    <Modal show={item !== null} onHide={hide} aria-labelledby="skip-item-title">
      <Form noValidate onSubmit={(e) => void submit(e)}>
        <ModalHeader id="skip-item-title">Skip “{item?.label}”</ModalHeader>
        <Modal.Body>
          <Form.Group controlId="skip-item-reason">
            <Form.Label>Reason</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={reason}
              maxLength={500}
              autoFocus
              isInvalid={error !== ''}
              aria-describedby={error ? 'skip-item-reason-feedback' : undefined}
              onChange={(e) => setReason(e.target.value)}
            />
            <Form.Control.Feedback type="invalid" id="skip-item-reason-feedback">
              {error}
            </Form.Control.Feedback>
          </Form.Group>
        </Modal.Body>
        <ModalFooter onClose={hide} closeLabel="Cancel" action={{ label: 'Skip Item', disabled: busy }} />
      </Form>
    </Modal>
  );
}

function RunCard({ run }: { run: ChecklistRun }) {
  const store = useStoreRun();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [skipping, setSkipping] = useState<ChecklistRunItem | null>(null);
  const tick = async (item: ChecklistRunItem, state: 'done' | 'open' | 'skipped', reason?: string) => {
    setBusy(true);
    setError('');
    try {
      store(await tickChecklistItem(run, item.id, { state, ...(reason !== undefined ? { reason } : {}) }));
    } finally {
      setBusy(false);
    }
  };
  // A manual tick shows at once, marked as saving, and cannot be clicked again until the server
  // answers (on a slow link a second click would send the opposite); a refusal puts the box back
  // and says why.
  const [pending, setPending] = useState<Record<string, 'done' | 'open'>>({});
  const settle = (itemId: string) =>
    setPending((p) => Object.fromEntries(Object.entries(p).filter(([key]) => key !== itemId)));
  const tickManual = (item: ChecklistRunItem, state: 'done' | 'open') => {
    setError('');
    setPending((p) => ({ ...p, [item.id]: state }));
    tickChecklistItem(run, item.id, { state })
      .then(store, (err: unknown) =>
        setError(`"${item.label}" was not ${state === 'done' ? 'ticked' : 'unticked'}: ${errorMessage(err)}`),
      )
      .finally(() => settle(item.id));
  };
  const safeTick = (item: ChecklistRunItem, state: 'done' | 'open') => {
    if (item.kind === 'manual' && item.state !== 'skipped') tickManual(item, state);
    else void tick(item, state).catch((err: unknown) => setError(errorMessage(err)));
  };
  const remaining = run.items.filter((i) => !checklistItemSatisfied(i)).length;
  const titleId = `checklist-run-${run.id}-title`;
  return (
    <Card className="mb-3" data-testid={`checklist-run-${run.name}`} aria-labelledby={titleId} as="section">
      <Card.Header className="d-flex align-items-center gap-2 py-2">
        <h3 className="h6 mb-0 me-auto" id={titleId}>
          {run.name}
          {/* The phase beside the name, unless the name already says it ("Pre-dive (Pre-dive)"). */}
          {run.name.trim().toLowerCase() !== checklistPhaseLabels[run.phase].toLowerCase() && (
            <span className="text-body-secondary fw-normal"> ({checklistPhaseLabels[run.phase]})</span>
          )}
        </h3>
        {run.state === 'complete' ? (
          <Badge bg="success" text="dark" data-testid="run-state">
            Complete
          </Badge>
        ) : (
          <Badge bg="secondary" data-testid="run-state">
            Open: {remaining} to go
          </Badge>
        )}
      </Card.Header>
      <ErrorAlert message={error} onClose={() => setError('')} className="m-2" />
      <ListGroup variant="flush">
        {run.items.map((item) => (
          <RunItem
            key={item.id}
            run={run}
            item={item}
            busy={busy}
            pending={pending[item.id]}
            onTick={safeTick}
            onSkip={setSkipping}
          />
        ))}
      </ListGroup>
      {run.state === 'complete' && (
        <Card.Footer className="small" data-testid="run-completed">
          Completed by {run.completed_by} at {formatUtc(run.completed_at)}
        </Card.Footer>
      )}
      <SkipDialog
        item={skipping}
        onHide={() => setSkipping(null)}
        onSubmit={async (reason) => {
          await tick(skipping!, 'skipped', reason);
          setSkipping(null);
        }}
      />
    </Card>
  );
}

/** Every checklist run of a lowering, live (docs/checklists.md#in-the-web-client). */
export function ChecklistRuns({ loweringId }: { loweringId: string }) {
  const runs = useChecklistRuns(loweringId);
  if (runs.isPending) return <LoadingText text={statusTexts.loading} />;
  if (runs.isError) return <ErrorAlert message={`Checklists could not be read: ${errorMessage(runs.error)}`} />;
  if (runs.data.length === 0)
    return <EmptyText>No checklists defined yet. An admin adds them under System Management → Checklists.</EmptyText>;
  return (
    <>
      {runs.data.map((run) => (
        <RunCard key={run.id} run={run} />
      ))}
    </>
  );
}

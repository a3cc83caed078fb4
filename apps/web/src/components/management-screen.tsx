import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Col, Row } from 'react-bootstrap';
import { ErrorAlert } from './alerts';
import { ConfirmModal } from './confirm-modal';
import { ImportDialog, type ImportOutcome } from './import-dialog';
import { useConfirmedAction } from './use-confirmed-action';

export interface ManagementLayoutProps {
  /**
   * The list column's width from the medium (and large) breakpoint; the form takes the rest. From
   * the extra-large breakpoint both are five wide, the list offset by one.
   */
  listWidth: { md: number; lg?: number };
  /** The last list action's failure (a delete, a hide), above the tables. */
  error: string;
  onCloseError: () => void;
  /** The tables and the buttons below them. */
  list: ReactNode;
  /** The add / update form. */
  form: ReactNode;
  /** The screen's modals (confirmation, import, its own). */
  modals: ReactNode;
}

/** A record-management screen: tables with their buttons on the left, the record's form on the right. */
export function ManagementLayout({ listWidth, error, onCloseError, list, form, modals }: ManagementLayoutProps) {
  const { md, lg } = listWidth;
  return (
    <Row>
      <Col sm={12} md={md} lg={lg} xl={{ span: 5, offset: 1 }}>
        <ErrorAlert message={error} onClose={onCloseError} />
        {list}
      </Col>
      <Col sm={12} md={12 - md} lg={lg === undefined ? undefined : 12 - lg} xl={5}>
        {form}
      </Col>
      {modals}
    </Row>
  );
}

/** Below the tables: import from a file and add a record, each where the viewer may. */
export function ManagementButtons({
  importLabel,
  canImport,
  onImport,
  addLabel,
  addDisabled,
  onAdd,
}: {
  /** "Import From File" / "Import". */
  importLabel: string;
  canImport: boolean;
  onImport: () => void;
  /** "Add Cruise", "Create User" …; disabled while the form is already a blank new record. */
  addLabel: string;
  addDisabled: boolean;
  onAdd: () => void;
}) {
  return (
    <div className="d-flex justify-content-end gap-2 mb-3">
      {canImport && (
        <Button variant="outline-primary" size="sm" onClick={onImport}>
          {importLabel}
        </Button>
      )}
      <Button variant="outline-primary" size="sm" onClick={onAdd} disabled={addDisabled}>
        {addLabel}
      </Button>
    </div>
  );
}

/** An import dialog of JSON records, for admins. */
export function ManagementImport({
  show,
  canImport,
  title,
  importRecord,
  onHide,
  onFinished,
}: {
  show: boolean;
  canImport: boolean;
  /** "Import Users", "Import Event Templates" … */
  title: string;
  importRecord: (record: Record<string, unknown>) => Promise<ImportOutcome>;
  onHide: () => void;
  onFinished: () => void;
}) {
  if (!canImport) return null;
  return (
    <ImportDialog<Record<string, unknown>>
      show={show}
      title={title}
      onHide={onHide}
      importRecord={importRecord}
      onFinished={onFinished}
    />
  );
}

type DeleteRequest<T> = { kind: 'delete'; item: T } | { kind: 'deleteAll' };

export interface SystemSplitListOptions<T extends { id: string }> {
  /** The records as last read; `loaded` once a read has succeeded. */
  items: readonly T[] | undefined;
  loaded: boolean;
  /** System records have their own table and survive a delete-all. */
  isSystem: (item: T) => boolean;
  remove: (item: T) => Promise<unknown>;
  removeAll: () => Promise<unknown>;
  /** Re-reads the list (after a delete, succeeded or not). */
  refresh: () => Promise<unknown>;
  /** "user", "event template": "delete this {word}?", "delete all non-system {word}s?". */
  word: string;
  /** How a record is named when it goes away under the form (a username, a button name). */
  name?: (item: T) => string;
}

/**
 * The state of a management screen whose records split into a system and a regular table (users,
 * event templates): the record in the form (picked again by id after each read, dropped when
 * gone), a fresh add form, the pending delete or delete-all and its confirmation, the import.
 */
export function useSystemSplitList<T extends { id: string }>(options: SystemSplitListOptions<T>) {
  const { items, loaded, isSystem, remove, removeAll, refresh, word, name } = options;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  /** The record in the form went away (another admin deleted it): said, not silently dropped. */
  const [gone, setGone] = useState('');
  const lastSelected = useRef<T | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [formBlank, setFormBlank] = useState(true);
  const [importing, setImporting] = useState(false);

  const all = useMemo(() => items ?? [], [items]);
  const system = useMemo(() => all.filter((item) => isSystem(item)), [all, isSystem]);
  const regular = useMemo(() => all.filter((item) => !isSystem(item)), [all, isSystem]);
  const selected = all.find((item) => item.id === selectedId) ?? null;

  useEffect(() => {
    if (selected) lastSelected.current = selected;
  }, [selected]);
  useEffect(() => {
    if (selectedId && loaded && !selected) {
      const was = lastSelected.current;
      const named = was && was.id === selectedId && name ? ` ${name(was)}` : '';
      setGone(
        `The ${word}${named} was deleted by someone else while you were editing it; changes in the form were not saved.`,
      );
      setSelectedId(null);
    }
  }, [selectedId, selected, loaded, name, word]);

  const confirmation = useConfirmedAction<DeleteRequest<T>>(async (request) => {
    if (request.kind === 'delete') {
      await remove(request.item);
      if (request.item.id === selectedId) setSelectedId(null);
    } else {
      await removeAll();
      if (selected && !isSystem(selected)) setSelectedId(null);
    }
  }, refresh);

  const edit = useCallback((item: T) => {
    setSelectedId(item.id);
    window.scrollTo({ top: 0 });
  }, []);

  const confirmModal = (
    <ConfirmModal
      show={confirmation.pending !== null}
      body={
        confirmation.pending?.kind === 'deleteAll'
          ? `Are you sure you want to delete all non-system ${word}s?`
          : `Are you sure you want to delete this ${word}?`
      }
      busy={confirmation.busy}
      onConfirm={() => void confirmation.confirm()}
      onHide={() => confirmation.ask(null)}
    />
  );

  return {
    system,
    regular,
    selectedId,
    selected,
    /** Remounts the form for another record or a fresh add. */
    formKey: `${selected?.id ?? 'new'}-${formKey}`,
    onBlankChange: setFormBlank,
    addDisabled: !selected && formBlank,
    edit: (item: T) => {
      setGone('');
      edit(item);
    },
    startAdd: () => {
      setGone('');
      setSelectedId(null);
      // A fresh add form: remount it even when already in add mode.
      setFormKey((k) => k + 1);
    },
    askDelete: (item: T) => confirmation.ask({ kind: 'delete', item }),
    askDeleteAll: () => confirmation.ask({ kind: 'deleteAll' }),
    error: confirmation.error || gone,
    clearError: () => {
      confirmation.clearError();
      setGone('');
    },
    confirmModal,
    importing,
    setImporting,
  };
}

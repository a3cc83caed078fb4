import { useState } from 'react';
import { Form, Modal } from 'react-bootstrap';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../../api/client';
import { ModalFooter, ModalHeader } from '../../components/modal-parts';
import { EmptyText, LoadingText, statusTexts } from '../../components/status-text';
import { useEntityNames } from '../../lib/settings';
import { ChecklistRuns } from './checklist-runs';

interface LoweringChoice {
  id: string;
  lowering_id: string;
  start_ts: string;
  stop_ts: string;
}

/** The lowering under way now, else the one that started last. */
export function currentLowering(lowerings: readonly LoweringChoice[], now = Date.now()): LoweringChoice | undefined {
  const underWay = lowerings.filter((l) => Date.parse(l.start_ts) <= now && Date.parse(l.stop_ts) >= now);
  const pool = underWay.length > 0 ? underWay : lowerings;
  return [...pool].sort((a, b) => Date.parse(b.start_ts) - Date.parse(a.start_ts))[0];
}

/** The console's checklists: the current lowering's runs (another lowering may be chosen). Lazily loaded. */
export function ChecklistsModal({
  show,
  onHide,
  lowering,
}: {
  show: boolean;
  onHide: () => void;
  /** This lowering's runs only (the lowering card), without the choice of another. */
  lowering?: { id: string; lowering_id: string };
}) {
  const names = useEntityNames();
  const lowerings = useQuery({
    queryKey: ['checklists', 'lowerings'],
    queryFn: ({ signal }) => getList<LoweringChoice>('lowerings', { signal }),
    enabled: show && !lowering,
  });
  const [chosen, setChosen] = useState<string | null>(null);
  const list = lowerings.data ?? [];
  const loweringId = lowering?.id ?? chosen ?? currentLowering(list)?.id ?? null;
  const ordered = [...list].sort((a, b) => Date.parse(b.start_ts) - Date.parse(a.start_ts));
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="checklists-modal-title">
      <ModalHeader id="checklists-modal-title">
        {lowering ? `Checklists: ${lowering.lowering_id}` : 'Checklists'}
      </ModalHeader>
      <Modal.Body>
        {lowering ? (
          <ChecklistRuns loweringId={lowering.id} />
        ) : lowerings.isPending ? (
          <LoadingText text={statusTexts.loading} />
        ) : list.length === 0 ? (
          <EmptyText>
            No {names.lowerings} found: checklists are run for a {names.lowering}.
          </EmptyText>
        ) : (
          <>
            <Form.Group className="mb-3" controlId="checklists-lowering">
              <Form.Label>{names.Lowering}</Form.Label>
              <Form.Select size="sm" value={loweringId ?? ''} onChange={(e) => setChosen(e.target.value)}>
                {ordered.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.lowering_id}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            {loweringId && <ChecklistRuns loweringId={loweringId} />}
          </>
        )}
      </Modal.Body>
      <ModalFooter onClose={onHide} />
    </Modal>
  );
}

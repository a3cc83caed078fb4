import { useEffect, useRef, useState } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { api, errorMessage } from '../../../api/client';
import type { RecordKind } from '../../../api/records';
import { openExecuteOutput } from '../../../api/realtime';
import { ErrorAlert } from '../../../components/alerts';
import { ModalHeader } from '../../../components/modal-parts';
import { LoadingText } from '../../../components/status-text';
import { helloToken } from '../../../lib/session';

/**
 * One output line as shown (docs/screens.md#export-command): the first tab becomes two spaces and a
 * Python log prefix is dropped by keeping everything after the first " - ".
 */
export function executeOutputLine(line: string): string {
  const tabbed = line.replace('\t', '  ');
  const cut = tabbed.indexOf(' - ');
  return cut >= 0 ? tabbed.slice(cut + 3) : tabbed;
}

export interface ExecuteModalProps {
  /** The record to export; null = closed. */
  target: { kind: RecordKind; id: string; humanId: string } | null;
  /** "Export Lowering: S0492". */
  title: string;
  /** "Export data related to this lowering to files." */
  message: string;
  onHide: () => void;
}

type Phase = 'connecting' | 'ready' | 'running' | 'finished' | 'failed';

/**
 * The execute-command modal (docs/screens.md#export-command): a live link registered for
 * the command's output; once it is up, the message and "Proceed?"; Proceed starts the server's
 * export and streams its output; Close appears when the run has finished. If the link never
 * opens, the failure is only logged and no Proceed button appears. Close attempts are ignored
 * while the command runs.
 */
export function ExecuteModal({ target, title, message, onHide }: ExecuteModalProps) {
  const [phase, setPhase] = useState<Phase>('connecting');
  const [lines, setLines] = useState<string[]>([]);
  const [error, setError] = useState('');
  const linkRef = useRef<{ close(): void } | null>(null);
  const preRef = useRef<HTMLPreElement>(null);

  // One link per opening: the parent may pass a new but equal target object on every render.
  const targetKey = target ? `${target.kind}/${target.id}` : null;
  useEffect(() => {
    if (!targetKey) return;
    let cancelled = false;
    setPhase('connecting');
    setLines([]);
    setError('');
    openExecuteOutput({
      getToken: helloToken,
      onLine: (line) => setLines((prev) => [...prev, executeOutputLine(line)]),
      onEnd: () => setPhase((p) => (p === 'running' ? 'finished' : p)),
    }).then(
      (link) => {
        if (cancelled) {
          link.close();
          return;
        }
        linkRef.current = link;
        setPhase('ready');
      },
      (err: unknown) => {
        // A websocket failure is logged only (docs/screens.md#failed-reads).
        console.log('Execute output connection failed:', errorMessage(err));
        if (!cancelled) setPhase('failed');
      },
    );
    return () => {
      cancelled = true;
      linkRef.current?.close();
      linkRef.current = null;
    };
  }, [targetKey]);

  useEffect(() => {
    preRef.current?.scrollTo({ top: preRef.current.scrollHeight });
  }, [lines]);

  const proceed = async () => {
    if (!target) return;
    setPhase('running');
    setError('');
    try {
      await api.get(`external_calls/export_${target.kind}/${target.id}`);
    } catch (err) {
      setError(errorMessage(err));
      setPhase('finished');
    }
  };

  const running = phase === 'running';
  return (
    <Modal
      show={!!target}
      onHide={() => {
        if (!running) onHide();
      }}
      size="xl"
      backdrop={running ? 'static' : true}
      keyboard={!running}
      aria-labelledby="execute-modal-title"
    >
      <ModalHeader id="execute-modal-title" closeButton={!running}>
        {title}
      </ModalHeader>
      <Modal.Body>
        {phase === 'connecting' && <LoadingText text="Connecting..." />}
        {phase !== 'connecting' && phase !== 'failed' && <p>{message}</p>}
        <ErrorAlert message={error} />
        {lines.length > 0 && (
          <pre
            ref={preRef}
            className="small bg-dark border rounded p-2 mb-0"
            style={{ maxHeight: 400, overflowY: 'auto', whiteSpace: 'pre-wrap' }}
            data-testid="execute-output"
            aria-live="polite"
          >
            {lines.join('\n')}
          </pre>
        )}
      </Modal.Body>
      <Modal.Footer>
        {phase === 'ready' && (
          <Button variant="warning" size="sm" onClick={() => void proceed()}>
            Proceed?
          </Button>
        )}
        {running && <span className="small text-secondary me-auto">Running...</span>}
        {(phase === 'finished' || phase === 'failed') && (
          <Button variant="secondary" size="sm" onClick={onHide}>
            Close
          </Button>
        )}
      </Modal.Footer>
    </Modal>
  );
}

import { lazy, Suspense, useState } from 'react';
import { Button } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type Role } from '@bathylog/shared';
import { eventTemplateKeys } from '../../api/event-templates';
import { useSubscription } from '../../api/use-realtime';
import { ErrorAlert } from '../../components/alerts';
import { EventOptionsModal } from '../../components/event-options-modal';
import { LoadingText, statusTexts } from '../../components/status-text';
import { useAuth } from '../../lib/auth';
import { checkAttachments } from '../../domain/events/api/attachments';
import { useEventWindow } from '../../domain/events/api/event-window';
import { EventHistory } from './components/event-history';
import { FreeTextInput } from './components/free-text-input';
import { TemplateButtons } from './components/template-buttons';
import { useEventLogger } from './hooks/use-event-logger';
import './event-log.css';

/** Who logs from the console (docs/screens.md#event-logging-console). */
export const loggerRoles: Role[] = capabilityRoles.eventLogging;
/** Who sees the history. */
export const historyRoles: Role[] = capabilityRoles.eventHistory;

// The checklists dialog is its own chunk, fetched when first opened.
const ChecklistsModal = lazy(async () => ({
  default: (await import('../../domain/checklists/checklists-modal')).ChecklistsModal,
}));

/** The console's Checklists button and its dialog (docs/checklists.md#in-the-web-client). */
function ChecklistsButton() {
  const [show, setShow] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <div className="d-flex justify-content-end mb-2">
        <Button
          size="sm"
          variant="outline-primary"
          onClick={() => {
            setOpened(true);
            setShow(true);
          }}
        >
          <i className="bi bi-list-check me-1" aria-hidden="true" />
          Checklists
        </Button>
      </div>
      {opened && (
        <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
          <ChecklistsModal show={show} onHide={() => setShow(false)} />
        </Suspense>
      )}
    </>
  );
}

function LoggingControls() {
  const logger = useEventLogger();
  const queryClient = useQueryClient();
  // Template changes by anyone refresh the buttons.
  const refreshTemplates = () => void queryClient.invalidateQueries({ queryKey: eventTemplateKeys.all });
  useSubscription('newEventTemplates', refreshTemplates);
  useSubscription('updateEventTemplates', refreshTemplates);
  useSubscription('deleteEventTemplates', refreshTemplates);
  return (
    <>
      <ErrorAlert message={logger.error} onClose={logger.clearError} />
      <ChecklistsButton />
      <TemplateButtons onTemplate={(t, shift) => void logger.logTemplate(t, shift)} />
      <FreeTextInput onSubmit={(text) => void logger.logFreeText(text)} />
      <EventOptionsModal
        template={logger.open?.template ?? null}
        eventTs={logger.open ? Date.parse(logger.open.event.ts) : 0}
        onSubmit={logger.submitOptions}
        checkPictures={checkAttachments}
        onCancel={logger.cancelOptions}
      />
    </>
  );
}

/**
 * `/`: the event logging console (docs/screens.md#event-logging-console). Loggers get the template
 * buttons, the free-text input and the history; event watchers the history only; other roles
 * nothing.
 */
export function EventLogScreen() {
  const auth = useAuth();
  const eventWindow = useEventWindow();
  if (!auth.profile) return <LoadingText text={statusTexts.loading} />;
  const canLog = auth.hasRole(...loggerRoles);
  const canWatch = auth.hasRole(...historyRoles);
  if (!canWatch) return null;
  return (
    <div data-testid="event-log-screen">
      {canLog && <LoggingControls />}
      {eventWindow.ready ? (
        <EventHistory startTS={eventWindow.startTS} canComment={canLog} />
      ) : (
        <LoadingText text={statusTexts.loading} />
      )}
    </div>
  );
}

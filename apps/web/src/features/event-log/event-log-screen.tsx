import { useState } from 'react';
import { Button } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { capabilityRoles, type EventTemplate, type Role } from '@bathylog/shared';
import { applyTemplatePush, eventTemplateKeys, type TemplatePush } from '../../api/event-templates';
import { useSubscription } from '../../api/use-realtime';
import { ErrorAlert } from '../../components/alerts';
import { EventOptionsModal } from '../../components/event-options-modal';
import { LoadingText, statusTexts } from '../../components/status-text';
import { Link } from 'wouter';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';
import { checkAttachments } from '../../domain/events/api/attachments';
import { useEventWindow } from '../../domain/events/api/event-window';
import { LazyChecklistsModal } from '../../domain/checklists/lazy-checklists-modal';
import { EventHistory } from './components/event-history';
import { FreeTextInput } from './components/free-text-input';
import { TemplateButtons } from './components/template-buttons';
import { useEventLogger } from './hooks/use-event-logger';
import './event-log.css';

/** Who logs from the console (docs/screens.md#event-logging-console). */
export const loggerRoles: Role[] = capabilityRoles.eventLogging;
/** Who sees the history. */
export const historyRoles: Role[] = capabilityRoles.eventHistory;

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
      {opened && <LazyChecklistsModal show={show} onHide={() => setShow(false)} />}
    </>
  );
}

function LoggingControls() {
  const logger = useEventLogger();
  const queryClient = useQueryClient();
  // Template changes by anyone show at once from the push (no round trip), then a refetch
  // confirms what the push cannot say (docs/realtime.md#templates-on-the-console).
  const onTemplatePush = (kind: TemplatePush) => (payload: unknown) => {
    queryClient.setQueryData<EventTemplate[]>(
      eventTemplateKeys.list(),
      (list) => applyTemplatePush(list, kind, payload) ?? list,
    );
    void queryClient.invalidateQueries({ queryKey: eventTemplateKeys.all });
  };
  useSubscription('newEventTemplates', onTemplatePush('new'));
  useSubscription('updateEventTemplates', onTemplatePush('update'));
  useSubscription('deleteEventTemplates', onTemplatePush('delete'));
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

/** The words of a home page without the console. */
export const noConsoleText = 'Your roles do not log or watch events here. Your screens:';

/**
 * `/` for roles without the console (event_manager, template_manager): the configured header and
 * the screens they work on (the header keeps the review link), instead of a blank page (docs/screens.md#event-logging-console).
 */
function RoleHome() {
  const auth = useAuth();
  const settings = useSettings();
  const screens = [
    { to: '/event_management', label: 'Event Management', show: auth.hasRole(...capabilityRoles.eventManagement) },
    { to: '/event_templates', label: 'Event Templates', show: auth.hasRole(...capabilityRoles.eventTemplates) },
  ].filter((s) => s.show);
  return (
    <div data-testid="role-home">
      <h1 className="h4">{settings.mainScreenHeader}</h1>
      <p>{noConsoleText}</p>
      <ul>
        {screens.map((s) => (
          <li key={s.to}>
            <Link to={s.to}>{s.label}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * `/`: the event logging console (docs/screens.md#event-logging-console). Loggers get the template
 * buttons, the free-text input and the history; event watchers the history only; other roles the
 * way to their screens.
 */
export function EventLogScreen() {
  const auth = useAuth();
  const eventWindow = useEventWindow();
  if (!auth.profile) return <LoadingText text={statusTexts.loading} />;
  const canLog = auth.hasRole(...loggerRoles);
  const canWatch = auth.hasRole(...historyRoles);
  if (!canWatch) return <RoleHome />;
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

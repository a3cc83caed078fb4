import { useMemo, useState, type CSSProperties, type MouseEvent } from 'react';
import { Alert, Button, Nav } from 'react-bootstrap';
import { buttonTextColor, buttonVariantOf, normalizeHexColor, type EventTemplate } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { useEventTemplates } from '../../../api/event-templates';
import { ErrorAlert } from '../../../components/alerts';
import { LoadingText, statusTexts } from '../../../components/status-text';
import { getCookie, setCookie } from '../../../lib/cookies';
import { useSettings } from '../../../lib/settings';
import { categoryCookie, categoryTabs, initialTab, templatesInTab, usableTemplates } from '../lib/categories';

const oneYear = 365 * 24 * 3600;

/** A template's own colour (Sealog 2.4.5), its label black or white for WCAG AA contrast. */
function buttonStyle(template: EventTemplate): CSSProperties | undefined {
  const hex = normalizeHexColor(template.event_button_color ?? '');
  if (!hex) return undefined;
  const text = buttonTextColor(hex);
  // Bootstrap's button variables, so hover and focus keep the colour instead of the theme's blue.
  return {
    '--bs-btn-bg': hex,
    '--bs-btn-border-color': hex,
    '--bs-btn-hover-bg': hex,
    '--bs-btn-hover-border-color': text,
    '--bs-btn-active-bg': hex,
    '--bs-btn-active-border-color': text,
    '--bs-btn-color': text,
    '--bs-btn-hover-color': text,
    '--bs-btn-active-color': text,
  } as CSSProperties;
}

export interface TemplateButtonsProps {
  /** A template button was pressed; `shiftKey` asks for the options modal (custom time). */
  onTemplate: (template: EventTemplate, shiftKey: boolean) => void;
}

/**
 * The template buttons (docs/screens.md#template-buttons-and-categories): category pills plus All,
 * the chosen tab kept in the `category` cookie; one large button per enabled template.
 */
export function TemplateButtons({ onTemplate }: TemplateButtonsProps) {
  const settings = useSettings();
  const query = useEventTemplates();
  const templates = useMemo(() => usableTemplates(query.data ?? []), [query.data]);
  const tabs = useMemo(
    () => categoryTabs(templates, settings.categorySortOrder),
    [templates, settings.categorySortOrder],
  );
  const [chosen, setChosen] = useState<string | null>(() => getCookie(categoryCookie));
  const tab = initialTab(tabs, chosen);
  const shown = templatesInTab(templates, tab);

  const choose = (next: string | null) => {
    if (!next) return;
    setChosen(next);
    setCookie(categoryCookie, next, { maxAge: oneYear });
  };

  if (query.isPending) return <LoadingText text={statusTexts.loading} />;
  if (query.isError && !query.data) return <ErrorAlert message={errorMessage(query.error)} />;
  if (templates.length === 0) {
    return (
      <Alert variant="danger" className="mb-2">
        {statusTexts.noEventTemplatesConsole}
      </Alert>
    );
  }

  const click = (template: EventTemplate) => (e: MouseEvent<HTMLButtonElement>) => onTemplate(template, e.shiftKey);

  return (
    <div className="mb-2" data-testid="template-buttons">
      {tabs.length > 0 && (
        <Nav
          variant="pills"
          activeKey={tab ?? undefined}
          onSelect={choose}
          className="mb-1"
          aria-label="Template categories"
        >
          {tabs.map((c) => (
            <Nav.Item key={c}>
              <Nav.Link as="button" eventKey={c} type="button">
                {c}
              </Nav.Link>
            </Nav.Item>
          ))}
        </Nav>
      )}
      <div className="template-button-grid">
        {shown.map((t) => (
          <Button
            key={t.id}
            // A stored variant name becomes the Bootstrap variant only when it is one of the eight
            // (docs/sealog-clients.md#template-button-colours); anything else keeps primary.
            variant={buttonVariantOf(t.event_button_color) ?? 'primary'}
            className="template-button"
            onClick={click(t)}
            title={t.event_value}
            style={buttonStyle(t)}
          >
            {t.event_name}
          </Button>
        ))}
      </div>
    </div>
  );
}

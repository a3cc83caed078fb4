import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventTemplateKeys } from '../api/event-templates';
import { earlyGets, earlyGetsGlobal, earlyGetsScript } from '../api/early-gets';
import { clearSession } from '../lib/session';
import { createQueryClient } from './app';
import { loadHomeRoute, startFirstScreen } from './first-screen';
import { loadFooterStatus } from './layout/footer';
import { loadHeaderMenus } from './layout/header';

const template = {
  id: 't1',
  event_name: 'ROV Off Deck',
  event_value: 'VEHICLE',
  event_free_text_required: false,
  system_template: false,
  template_categories: [],
  admin_only: false,
  event_options: [],
};

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

/** A fetch answering the templates list with `templates` and anything else with an empty object. */
function stubFetch(templates: unknown[]) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) =>
    json(url.includes('/event_templates') ? templates : {}),
  );
  vi.stubGlobal('fetch', fetchMock);
  const urls = () => fetchMock.mock.calls.map(([url]) => url);
  return { fetchMock, urls };
}

/** A stored session as the server's login leaves it readable: the id cookie (the token is HttpOnly). */
function storeSession() {
  document.cookie = 'id=u1; path=/';
}

/** Runs index.html's inline script, as the browser does while parsing the page. */
function runInlineScript(pathname: string) {
  window.history.replaceState(null, '', pathname);
  new Function(earlyGetsScript())();
}

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
  delete (window as unknown as Record<string, unknown>)[earlyGetsGlobal];
});

describe("index.html's early GETs (for a ship's link with 600 ms round trips)", () => {
  it('with a stored session on the console, sends the profile and templates GETs with the session cookie', () => {
    storeSession();
    const { fetchMock, urls } = stubFetch([template]);
    runInlineScript('/');
    expect(urls()).toEqual([...earlyGets.all, ...earlyGets.byPath['/']!]);
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(init.credentials).toBe('same-origin');
  });

  it('on another screen, sends the profile only; without a session, nothing', () => {
    storeSession();
    const { fetchMock, urls } = stubFetch([]);
    runInlineScript('/cruise_menu');
    expect(urls()).toEqual(earlyGets.all);
    clearSession();
    fetchMock.mockClear();
    runInlineScript('/');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('the first screen takes those answers (checked) instead of asking again; a later GET asks the server', async () => {
    storeSession();
    const { urls } = stubFetch([template]);
    runInlineScript('/');
    const queryClient = createQueryClient();

    startFirstScreen(queryClient, '/');
    await vi.waitFor(() => expect(queryClient.getQueryData(eventTemplateKeys.list())).toEqual([template]));
    const templateGets = () => urls().filter((u) => u.includes('/event_templates'));
    expect(templateGets()).toHaveLength(1);

    await queryClient.refetchQueries({ queryKey: eventTemplateKeys.list() });
    expect(templateGets()).toHaveLength(2);
    // The code the first screen started loading, before the test environment goes.
    await Promise.all([loadHomeRoute(), loadHeaderMenus(), loadFooterStatus()]);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, engines, type TestApp } from '../../../test/test-app.js';
import { createRoleUsers, type RoleUsers } from '../../../test/role-tokens.js';

const demoTemplates = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../../demo/${file}`, import.meta.url), 'utf8')) as Array<Record<string, unknown>>;

const staticOption = (name: string, value: string) => ({
  event_option_name: name,
  event_option_type: 'static text',
  event_option_default_value: value,
  event_option_values: [],
  event_option_allow_freeform: false,
  event_option_required: false,
});

const choiceOption = (name: string, type: string, values: string[], fallback?: string) => ({
  event_option_name: name,
  event_option_type: type,
  ...(fallback !== undefined ? { event_option_default_value: fallback } : {}),
  event_option_values: values,
  event_option_allow_freeform: false,
  event_option_required: true,
});

const visibility = (show_hide: string, event_option_name: string, event_option_values: string[]) => ({
  show_hide,
  event_option_name,
  event_option_values,
});

const template = (overrides: Record<string, unknown> = {}) => ({
  event_name: 'Fish',
  event_value: 'FISH',
  event_free_text_required: false,
  system_template: false,
  template_categories: ['biology'],
  event_options: [choiceOption('Fish Type', 'dropdown', ['Eel', 'Shark'], 'Eel')],
  ...overrides,
});

describe.each(engines)('event templates API on %s', (engine) => {
  let t: TestApp;
  let users: RoleUsers;
  let admin: string;
  let tm: string;
  let guest: string;

  beforeAll(async () => {
    t = await createTestApp(engine);
    users = await createRoleUsers(t);
    admin = users.tokens.admin!;
    tm = users.tokens.template_manager!;
    guest = users.tokens.guest!;
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.ctx.database.db.deleteFrom('event_templates').execute();
  });

  const create = async (body: Record<string, unknown>, token = admin) => {
    const res = await t.api('POST', '/event_templates', { token, body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { insertedId: string }).insertedId;
  };
  const names = (res: { json(): unknown }) => (res.json() as Array<{ event_name: string }>).map((x) => x.event_name);

  it('answers 404 No records found for an empty list', async () => {
    const res = await t.api('GET', '/event_templates', { token: admin });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No records found' });
  });

  it('creates a template and returns it in the wire shape, disabled only for admins', async () => {
    const res = await t.api('POST', '/event_templates', {
      token: admin,
      body: template({ template_style: { color: 'red' }, disabled: false }),
    });
    expect(res.statusCode).toBe(201);
    const { acknowledged, insertedId } = res.json() as { acknowledged: boolean; insertedId: string };
    expect(acknowledged).toBe(true);
    expect(insertedId).toMatch(/^[0-9a-f]{24}$/);
    const asAdmin = await t.api('GET', `/event_templates/${insertedId}`, { token: admin });
    expect(asAdmin.json()).toEqual({
      id: insertedId,
      event_name: 'Fish',
      event_value: 'FISH',
      event_free_text_required: false,
      system_template: false,
      template_categories: ['biology'],
      template_style: { color: 'red' },
      disabled: false,
      admin_only: false,
      event_options: [choiceOption('Fish Type', 'dropdown', ['Eel', 'Shark'], 'Eel')],
    });
    const asGuest = (await t.api('GET', `/event_templates/${insertedId}`, { token: guest })).json() as Record<
      string,
      unknown
    >;
    expect(asGuest).not.toHaveProperty('disabled');
    expect(asGuest.event_name).toBe('Fish');
  });

  it('keeps a client id and answers 400 duplicate template on a repeat', async () => {
    const id = '5dac67d6a78d2f4ec028551e';
    expect(await create(template({ id }))).toBe(id);
    const again = await t.api('POST', '/event_templates', {
      token: admin,
      body: template({ id, event_name: 'Other' }),
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'duplicate template' });
    const list = await t.api('GET', '/event_templates', { token: admin });
    expect(names(list)).toEqual(['Fish']);
  });

  it('imports both demo template files, then counts every repeat as a duplicate', async () => {
    for (const file of ['FKt230303_eventTemplates.json', 'FKt230303_S0492_eventTemplates.json']) {
      for (const record of demoTemplates(file)) {
        const res = await t.api('POST', '/event_templates', { token: admin, body: record });
        if (res.statusCode === 400) expect(res.json()).toMatchObject({ message: 'duplicate template' });
        else expect(res.statusCode, `${String(record.event_name)}: ${res.body}`).toBe(201);
      }
    }
    const all = demoTemplates('FKt230303_S0492_eventTemplates.json');
    const again = await t.api('POST', '/event_templates', { token: admin, body: all[0] });
    expect(again.json()).toMatchObject({ statusCode: 400, message: 'duplicate template' });
    const stored = await t.api('GET', `/event_templates/${String(all[0]!.id)}`, { token: admin });
    expect(stored.json()).toMatchObject({ event_name: '01. ROV Off Deck', system_template: true, admin_only: true });
  });

  it('sorts by event_name, case-insensitively, by default and with sort=event_name', async () => {
    for (const name of ['beta', 'Gamma', 'alpha', 'Delta', 'Beta']) await create(template({ event_name: name }));
    const expected = ['alpha', 'Beta', 'beta', 'Delta', 'Gamma'];
    expect(names(await t.api('GET', '/event_templates', { token: admin }))).toEqual(expected);
    expect(names(await t.api('GET', '/event_templates?sort=event_name', { token: guest }))).toEqual(expected);
    expect(names(await t.api('GET', '/event_templates?offset=1&limit=2', { token: admin }))).toEqual(['Beta', 'beta']);
    expect((await t.api('GET', '/event_templates?offset=9', { token: admin })).statusCode).toBe(404);
  });

  it('filters by system_template (true no longer fails) and admin_only', async () => {
    await create(template({ event_name: 'plain' }));
    await create(template({ event_name: 'system', system_template: true }));
    await create(template({ event_name: 'sysadmin', system_template: true, admin_only: true }));
    const sys = await t.api('GET', '/event_templates?system_template=true', { token: admin });
    expect(sys.statusCode).toBe(200);
    expect(names(sys)).toEqual(['sysadmin', 'system']);
    expect(names(await t.api('GET', '/event_templates?system_template=False', { token: admin }))).toEqual(['plain']);
    expect(names(await t.api('GET', '/event_templates?admin_only=true', { token: admin }))).toEqual(['sysadmin']);
    expect(names(await t.api('GET', '/event_templates?admin_only=false', { token: admin }))).toEqual([
      'plain',
      'system',
    ]);
    expect((await t.api('GET', '/event_templates?admin_only=true', { token: guest })).statusCode).toBe(404);
  });

  it('rejects bad list queries with a message naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['?system_template=maybe', '"system_template" must be a boolean'],
      ['?limit=0', '"limit" must be greater than or equal to 1'],
      ['?sort=event_value', '"sort" must be one of [event_name]'],
      ['?foo=1', '"foo" is not allowed'],
    ];
    for (const [query, message] of cases) {
      const res = await t.api('GET', `/event_templates${query}`, { token: admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ error: 'Bad Request', message });
    }
  });

  it('hides disabled and admin-only templates from non-admins; missing flags count as false', async () => {
    await create(template({ event_name: 'no flags' }));
    await create(template({ event_name: 'off', disabled: true }));
    const adminOnly = await create(template({ event_name: 'admin only', system_template: true, admin_only: true }));
    const offId = await create(template({ event_name: 'off system', system_template: true, disabled: true }));
    expect(names(await t.api('GET', '/event_templates', { token: admin }))).toEqual([
      'admin only',
      'no flags',
      'off',
      'off system',
    ]);
    for (const token of [guest, tm, users.tokens.event_logger!, users.tokens.cruise_manager!]) {
      expect(names(await t.api('GET', '/event_templates', { token }))).toEqual(['no flags']);
    }
    const hidden = await t.api('GET', `/event_templates/${adminOnly}`, { token: guest });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ message: 'template only available to admin users' });
    // A disabled template is still readable by id (events logged from it can be shown), without the flag.
    const off = await t.api('GET', `/event_templates/${offId}`, { token: guest });
    expect(off.statusCode).toBe(200);
    expect(off.json()).not.toHaveProperty('disabled');
  });

  it('shows admin-only (not disabled) templates to a power_logger, who still cannot change them', async () => {
    await create(template({ event_name: 'no flags' }));
    const adminOnly = await create(template({ event_name: 'admin only', system_template: true, admin_only: true }));
    await create(template({ event_name: 'off system', system_template: true, admin_only: true, disabled: true }));
    const username = `pl${engine.slice(0, 2)}`;
    const made = await t.api('POST', '/users', {
      token: admin,
      body: {
        username,
        fullname: 'P L',
        email: `${username}@example.org`,
        password: 'secret-pw',
        roles: ['power_logger'],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const power = await t.login(username, 'secret-pw');
    expect(names(await t.api('GET', '/event_templates', { token: power }))).toEqual(['admin only', 'no flags']);
    const one = await t.api('GET', `/event_templates/${adminOnly}`, { token: power });
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty('disabled');
    // An event_logger still does not see it.
    expect(names(await t.api('GET', '/event_templates', { token: users.tokens.event_logger! }))).toEqual(['no flags']);
    const edit = await t.api('PATCH', `/event_templates/${adminOnly}`, { token: power, body: { event_name: 'x' } });
    expect(edit.statusCode).toBe(403);
  });

  it('stores admin_only only on system templates, on create and on update', async () => {
    const plain = await create(template({ admin_only: true }));
    expect((await t.api('GET', `/event_templates/${plain}`, { token: admin })).json()).toMatchObject({
      admin_only: false,
    });
    const sys = await create(template({ event_name: 'sys', system_template: true, admin_only: true }));
    await t.api('PATCH', `/event_templates/${sys}`, { token: admin, body: { event_value: 'FISH2' } });
    expect((await t.api('GET', `/event_templates/${sys}`, { token: admin })).json()).toMatchObject({
      event_value: 'FISH2',
      admin_only: true,
    });
    const demote = await t.api('PATCH', `/event_templates/${sys}`, { token: admin, body: { system_template: false } });
    expect(demote.statusCode).toBe(204);
    expect((await t.api('GET', `/event_templates/${sys}`, { token: admin })).json()).toMatchObject({
      system_template: false,
      admin_only: false,
    });
    await t.api('PATCH', `/event_templates/${plain}`, { token: admin, body: { admin_only: true } });
    expect((await t.api('GET', `/event_templates/${plain}`, { token: admin })).json()).toMatchObject({
      admin_only: false,
    });
  });

  it('updates fields, replaces the options list, and answers 400 for an unknown id', async () => {
    const id = await create(template());
    const res = await t.api('PATCH', `/event_templates/${id}`, {
      token: admin,
      body: { event_name: 'Fish 2', event_options: [staticOption('Kind', 'fish')], template_categories: [] },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.api('GET', `/event_templates/${id}`, { token: admin })).json()).toMatchObject({
      event_name: 'Fish 2',
      event_value: 'FISH',
      template_categories: [],
      event_options: [staticOption('Kind', 'fish')],
    });
    const missing = await t.api('PATCH', '/event_templates/5981f167212b348aed7fa9f0', {
      token: admin,
      body: { event_name: 'x' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: 'No record found for id: 5981f167212b348aed7fa9f0' });
  });

  it('deletes one template and answers 404 for an unknown id', async () => {
    const id = await create(template());
    const res = await t.api('DELETE', `/event_templates/${id}`, { token: admin });
    expect(res.statusCode).toBe(204);
    const again = await t.api('DELETE', `/event_templates/${id}`, { token: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: `No record found for id: ${id}` });
    expect((await t.api('GET', `/event_templates/${id}`, { token: admin })).json()).toMatchObject({
      statusCode: 404,
      message: `No record found for id: ${id}`,
    });
  });

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing name', { event_name: undefined }, '"event_name" is required'],
      ['empty name', { event_name: '' }, '"event_name" is not allowed to be empty'],
      ['missing flag', { system_template: undefined }, '"system_template" is required'],
      ['flag as text', { event_free_text_required: 'yes' }, '"event_free_text_required" must be a boolean'],
      ['unknown key', { colour: 'red' }, '"colour" is not allowed'],
      ['categories as text', { template_categories: 'a,b' }, '"template_categories" must be of type array'],
      [
        'unknown option type',
        { event_options: [choiceOption('A', 'slider', ['1'])] },
        '"event_options[0].event_option_type" must be one of [static text, text, dropdown, checkboxes, radio buttons, taxon]',
      ],
      [
        'option without values list',
        { event_options: [{ ...staticOption('A', 'x'), event_option_values: undefined }] },
        '"event_options[0].event_option_values" is required',
      ],
      [
        'unknown option key',
        { event_options: [{ ...staticOption('A', 'x'), event_option_hint: 'x' }] },
        '"event_options[0].event_option_hint" is not allowed',
      ],
      [
        'a visibility rule naming a missing option',
        {
          event_options: [
            choiceOption('Kind', 'radio buttons', ['rock', 'fish']),
            { ...staticOption('A', 'x'), event_option_visibility: visibility('show if', 'Depth', ['1']) },
          ],
        },
        '"event_options[1].event_option_visibility.event_option_name" must name another option of this template',
      ],
      [
        'a visibility rule naming its own option',
        {
          event_options: [
            choiceOption('Kind', 'radio buttons', ['rock', 'fish']),
            { ...choiceOption('A', 'dropdown', ['x']), event_option_visibility: visibility('hide if', 'a', ['x']) },
          ],
        },
        '"event_options[1].event_option_visibility.event_option_name" must not name its own option',
      ],
      [
        'a visibility rule with an empty values list',
        {
          event_options: [
            choiceOption('Kind', 'radio buttons', ['rock', 'fish']),
            { ...staticOption('A', 'x'), event_option_visibility: visibility('show if', 'Kind', []) },
          ],
        },
        '"event_options[1].event_option_visibility.event_option_values" must contain at least 1 items',
      ],
      [
        'a visibility rule with an unknown mode',
        {
          event_options: [
            choiceOption('Kind', 'radio buttons', ['rock', 'fish']),
            { ...staticOption('A', 'x'), event_option_visibility: visibility('show unless', 'Kind', ['rock']) },
          ],
        },
        '"event_options[1].event_option_visibility.show_hide" must be one of [show if, hide if]',
      ],
      [
        'a button colour that is not CSS hex',
        { event_button_color: 'red' },
        '"event_button_color" must be a CSS hex colour like #1a2b3c or one of primary, secondary, success, danger, warning, info, light, dark',
      ],
      [
        'a button colour with a bad length',
        { event_button_color: '#12345' },
        '"event_button_color" must be a CSS hex colour like #1a2b3c or one of primary, secondary, success, danger, warning, info, light, dark',
      ],
      [
        'a button colour that names a variant in another case',
        { event_button_color: 'Primary' },
        '"event_button_color" must be a CSS hex colour like #1a2b3c or one of primary, secondary, success, danger, warning, info, light, dark',
      ],
      [
        'a button colour that smuggles a style after a variant',
        { event_button_color: 'primary;background:url(x)' },
        '"event_button_color" must be a CSS hex colour like #1a2b3c or one of primary, secondary, success, danger, warning, info, light, dark',
      ],
      [
        'radio buttons without values',
        { event_options: [choiceOption('A', 'radio buttons', [])] },
        '"event_options[0].event_option_values" must contain at least 1 items for a radio buttons option',
      ],
      [
        'duplicate option names (as events would store them)',
        { event_options: [staticOption('Sample ID', 'a'), choiceOption('sample  id', 'radio buttons', ['x'])] },
        '"event_options[1].event_option_name" must be unique',
      ],
      [
        'static text without a value',
        { event_options: [staticOption('A', '  ')] },
        '"event_options[0].event_option_default_value" is required for a static text option',
      ],
      [
        'dropdown without values',
        { event_options: [choiceOption('A', 'dropdown', [])] },
        '"event_options[0].event_option_values" must contain at least 1 items for a dropdown option',
      ],
      [
        'dropdown default not in the list',
        { event_options: [choiceOption('A', 'dropdown', ['x', 'y'], 'z')] },
        '"event_options[0].event_option_default_value" must be one of the option values',
      ],
      [
        'radio default not in the list',
        { event_options: [staticOption('B', 'b'), choiceOption('A', 'radio buttons', ['x'], 'X')] },
        '"event_options[1].event_option_default_value" must be one of the option values',
      ],
      [
        'checkbox default not in the list',
        { event_options: [choiceOption('A', 'checkboxes', ['EM124', 'EM712'], 'EM124,EM999')] },
        '"event_options[0].event_option_default_value" must list only option values',
      ],
    ];
    it.each(cases)('rejects %s', async (_label, change, message) => {
      const res = await t.api('POST', '/event_templates', { token: admin, body: template(change) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
      // The same rules hold on PATCH, and nothing is written.
      if (change.event_options) {
        const id = await create(template({ event_name: 'keep' }));
        const patch = await t.api('PATCH', `/event_templates/${id}`, {
          token: admin,
          body: { event_options: change.event_options },
        });
        expect(patch.statusCode).toBe(400);
        expect(patch.json()).toMatchObject({ message });
        expect((await t.api('GET', `/event_templates/${id}`, { token: admin })).json()).toMatchObject({
          event_options: template().event_options,
        });
      }
    });

    it('accepts what the form allows and what imports carry', async () => {
      await create(
        template({
          event_name: 'A button name longer than thirty-two characters',
          event_options: [
            choiceOption('Sonar', 'checkboxes', ['EM124', 'EM712'], 'EM124,EM712'),
            choiceOption('Side', 'radio buttons', ['Port', 'Starboard'], ''),
            choiceOption('Kind', 'dropdown', ['a', 'b']),
            { ...choiceOption('Note', 'text', []), event_option_default_value: '' },
            choiceOption('Pair', 'checkboxes', ['x, y', 'z'], 'x, y'),
          ],
        }),
      );
    });

    it('keeps button colours and visibility rules through create, update, export and import', async () => {
      const options = [
        choiceOption('Kind', 'radio buttons', ['rock', 'fish'], 'rock'),
        {
          ...choiceOption('Rock type', 'dropdown', ['basalt', 'granite']),
          event_option_visibility: visibility('show if', 'Kind', ['rock']),
        },
        {
          ...choiceOption('Count', 'text', []),
          event_option_visibility: visibility('hide if', 'kind', ['rock', 'fish']),
        },
      ];
      const id = await create(template({ event_button_color: '#FFCC00', event_options: options }));
      const stored = (await t.api('GET', `/event_templates/${id}`, { token: admin })).json() as Record<string, unknown>;
      expect(stored).toMatchObject({ event_button_color: '#FFCC00', event_options: options });
      // A template manager's PATCH changes the colour; null clears it.
      const patch = (body: unknown) => t.api('PATCH', `/event_templates/${id}`, { token: tm, body });
      expect((await patch({ event_button_color: '#123' })).statusCode).toBe(204);
      expect((await t.api('GET', `/event_templates/${id}`, { token: tm })).json()).toMatchObject({
        event_button_color: '#123',
      });
      expect((await patch({ event_button_color: null })).statusCode).toBe(204);
      expect((await t.api('GET', `/event_templates/${id}`, { token: tm })).json()).not.toHaveProperty(
        'event_button_color',
      );
      // The Sealog 2.4.17 clients send Bootstrap variant names: kept and shown back as sent.
      for (const variant of ['primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark']) {
        expect((await patch({ event_button_color: variant })).statusCode, variant).toBe(204);
        expect((await t.api('GET', `/event_templates/${id}`, { token: tm })).json()).toMatchObject({
          event_button_color: variant,
        });
      }
      const variantMade = await create(template({ event_name: 'variant', event_button_color: 'warning' }));
      expect((await t.api('GET', `/event_templates/${variantMade}`, { token: tm })).json()).toMatchObject({
        event_button_color: 'warning',
      });
      await t.api('DELETE', `/event_templates/${variantMade}`, { token: admin });
      expect((await patch({ event_button_color: '#0a7d3c' })).statusCode).toBe(204);

      // Export (the list as JSON) and import (POST with the exported record, id kept) round trip.
      const exported = (await t.api('GET', '/event_templates', { token: admin })).json() as Array<
        Record<string, unknown>
      >;
      expect(exported).toHaveLength(1);
      await t.ctx.database.db.deleteFrom('event_templates').execute();
      const imported = await t.api('POST', '/event_templates', { token: admin, body: exported[0] });
      expect(imported.statusCode, imported.body).toBe(201);
      expect((await t.api('GET', `/event_templates/${id}`, { token: admin })).json()).toEqual(exported[0]);
      expect(exported[0]).toMatchObject({ event_button_color: '#0a7d3c', event_options: options });
    });

    it('rejects bad bodies and ids on PATCH and DELETE', async () => {
      const id = await create(template());
      const empty = await t.api('PATCH', `/event_templates/${id}`, { token: admin, body: {} });
      expect(empty.json()).toMatchObject({ statusCode: 400, message: '"value" must have at least 1 key' });
      const withId = await t.api('PATCH', `/event_templates/${id}`, { token: admin, body: { id } });
      expect(withId.json()).toMatchObject({ statusCode: 400, message: '"id" is not allowed' });
      const malformed = await t.api('PATCH', `/event_templates/${id}`, {
        token: admin,
        body: '{"event_name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.json()).toMatchObject({ statusCode: 400, message: 'Invalid request payload JSON format' });
      for (const bad of ['123', 'zzzzzzzzzzzzzzzzzzzzzzzz']) {
        for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
          const res = await t.api(method, `/event_templates/${bad}`, {
            token: admin,
            ...(method === 'PATCH' ? { body: { event_name: 'x' } } : {}),
          });
          expect(res.statusCode, `${method} ${bad}`).toBe(400);
          expect(res.json()).toMatchObject({ message: '"id" must be a 24-character hex id' });
        }
      }
    });
  });

  describe('role rules', () => {
    it('lets a template manager write non-system templates only', async () => {
      const own = await create(template({ event_name: 'mine' }), tm);
      expect(
        (await t.api('PATCH', `/event_templates/${own}`, { token: tm, body: { event_value: 'MINE' } })).statusCode,
      ).toBe(204);
      const sys = await create(template({ event_name: 'system', system_template: true }));
      const edit = await t.api('PATCH', `/event_templates/${sys}`, { token: tm, body: { event_value: 'X' } });
      expect(edit.statusCode).toBe(403);
      expect(edit.json()).toMatchObject({ message: 'user does not have permission to edit system templates' });
      const del = await t.api('DELETE', `/event_templates/${sys}`, { token: tm });
      expect(del.statusCode).toBe(401);
      expect(del.json()).toMatchObject({ message: 'user does not have permission to delete system templates' });
      expect((await t.api('GET', `/event_templates/${sys}`, { token: admin })).json()).toMatchObject({
        event_value: 'FISH',
      });
      expect((await t.api('DELETE', `/event_templates/${own}`, { token: tm })).statusCode).toBe(204);
    });

    it('keeps the system, admin-only and disabled flags for admins', async () => {
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ system_template: true }, 'Only admins can create or edit system templates'],
        [{ system_template: true, admin_only: true }, 'Only admins can create or edit system templates'],
        [{ admin_only: true }, 'Only admins can make a template admin only'],
        [{ disabled: true }, 'Only admins can disable templates'],
      ];
      const own = await create(template({ event_name: 'mine' }), tm);
      for (const [flags, message] of refusals) {
        const post = await t.api('POST', '/event_templates', { token: tm, body: template(flags) });
        expect(post.statusCode, JSON.stringify(flags)).toBe(403);
        expect(post.json()).toMatchObject({ message });
        const patch = await t.api('PATCH', `/event_templates/${own}`, { token: tm, body: flags });
        expect(patch.statusCode, JSON.stringify(flags)).toBe(403);
        expect(patch.json()).toMatchObject({ message });
      }
      // The form sends every flag as false: that is accepted.
      const body = { system_template: false, admin_only: false, disabled: false, event_value: 'OK' };
      expect((await t.api('PATCH', `/event_templates/${own}`, { token: tm, body })).statusCode).toBe(204);
      expect((await t.api('GET', `/event_templates/${own}`, { token: admin })).json()).toMatchObject({
        event_value: 'OK',
        system_template: false,
        disabled: false,
      });
    });

    it('does not let a non-admin re-enable a disabled template by saving it', async () => {
      const off = await create(template({ event_name: 'off', disabled: true }));
      const res = await t.api('PATCH', `/event_templates/${off}`, {
        token: tm,
        body: { event_value: 'NEW', disabled: false },
      });
      expect(res.statusCode).toBe(204);
      expect((await t.api('GET', `/event_templates/${off}`, { token: admin })).json()).toMatchObject({
        event_value: 'NEW',
        disabled: true,
      });
      expect(
        (await t.api('PATCH', `/event_templates/${off}`, { token: admin, body: { disabled: false } })).statusCode,
      ).toBe(204);
      expect((await t.api('GET', `/event_templates/${off}`, { token: admin })).json()).toMatchObject({
        disabled: false,
      });
    });

    it('answers 403 Insufficient scope to readers and watchers, 401 without a valid token', async () => {
      const id = await create(template());
      for (const token of [guest, users.tokens.event_logger!, users.tokens.event_manager!]) {
        for (const [method, url, body] of [
          ['POST', '/event_templates', template()],
          ['PATCH', `/event_templates/${id}`, { event_value: 'X' }],
          ['DELETE', `/event_templates/${id}`, undefined],
          ['DELETE', '/event_templates/all', undefined],
        ] as const) {
          const res = await t.api(method, url, { token, ...(body ? { body } : {}) });
          expect(res.statusCode, `${method} ${url}`).toBe(403);
          expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' });
        }
      }
      expect((await t.api('GET', '/event_templates', { token: users.tokens.event_watcher! })).statusCode).toBe(403);
      expect((await t.api('GET', '/event_templates', {})).json()).toMatchObject({
        statusCode: 401,
        message: 'Missing authentication',
      });
      expect((await t.api('GET', '/event_templates', { token: users.tokens.disabled! })).json()).toMatchObject({
        statusCode: 401,
        message: 'Invalid credentials',
      });
    });
  });

  describe('bulk delete of non-system templates', () => {
    it('removes every non-system template for an admin and leaves system ones', async () => {
      await create(template({ event_name: 'a' }));
      await create(template({ event_name: 'b', disabled: true }));
      await create(template({ event_name: 'sys', system_template: true }));
      const deleted: string[] = [];
      const off = t.ctx.bus.subscribe('deleteEventTemplates', (p) =>
        deleted.push((p as { event_name: string }).event_name),
      );
      const res = await t.api('DELETE', '/event_templates/all', { token: admin });
      off();
      expect(res.statusCode).toBe(204);
      expect(deleted.sort()).toEqual(['a', 'b']);
      expect(names(await t.api('GET', '/event_templates', { token: admin }))).toEqual(['sys']);
    });

    it('refuses a template manager (403) and removes nothing', async () => {
      await create(template({ event_name: 'a' }));
      await create(template({ event_name: 'sys', system_template: true }));
      const res = await t.api('DELETE', '/event_templates/all', { token: tm });
      expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Insufficient scope' });
      expect(names(await t.api('GET', '/event_templates', { token: admin }))).toEqual(['a', 'sys']);
    });
  });

  describe('realtime', () => {
    it('publishes new, update and delete with the template and without disabled', async () => {
      const seen: Array<[string, Record<string, unknown>]> = [];
      const offs = (['newEventTemplates', 'updateEventTemplates', 'deleteEventTemplates'] as const).map((channel) =>
        t.ctx.bus.subscribe(channel, (p) => seen.push([channel, p as Record<string, unknown>])),
      );
      const id = await create(template({ disabled: true, system_template: true, admin_only: true }));
      await t.api('PATCH', `/event_templates/${id}`, { token: admin, body: { event_name: 'Fish 2' } });
      await t.api('DELETE', `/event_templates/${id}`, { token: admin });
      // Rejected writes publish nothing.
      await t.api('PATCH', `/event_templates/${id}`, { token: admin, body: { event_name: 'gone' } });
      for (const off of offs) off();
      expect(seen.map(([c]) => c)).toEqual(['newEventTemplates', 'updateEventTemplates', 'deleteEventTemplates']);
      for (const [, payload] of seen) {
        expect(payload).not.toHaveProperty('disabled');
        expect(payload).toMatchObject({ id, event_value: 'FISH', system_template: true, admin_only: true });
      }
      expect(seen[0]![1]).toMatchObject({ event_name: 'Fish', event_options: template().event_options });
      expect(seen[1]![1]).toMatchObject({ event_name: 'Fish 2' });
      expect(seen[2]![1]).toMatchObject({ event_name: 'Fish 2' });
    });
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { alwaysDark, gridWords } from '../apps/web/prune-css.ts';
import { pruneModule, usedMembers } from '../apps/web/react-bootstrap-members.ts';

/**
 * The client build's trims (docs/lean-client.md#what-keeps-the-first-load-small) on made-up
 * sources: what react-bootstrap keeps of its compound components, and which grid classes the
 * style sheet keeps. The real build is checked by the browser suite and the bundle budget.
 */
describe('react-bootstrap members', () => {
  const esm = mkdtempSync(path.join(os.tmpdir(), 'rb-esm-'));
  const navbar = [
    "import NavbarOffcanvas from './NavbarOffcanvas.js';",
    'const propTypes = {',
    '  /** The brand. */',
    '  bsPrefix: PropTypes.string',
    '};',
    'const Navbar = () => null;',
    "Navbar.displayName = 'Navbar';",
    'Navbar.propTypes = propTypes;',
    'export default Object.assign(Navbar, {',
    '  Brand: NavbarBrand,',
    '  Offcanvas: NavbarOffcanvas,',
    '  Toggle: NavbarToggle',
    '});',
  ].join('\n');
  writeFileSync(path.join(esm, 'Navbar.js'), navbar);
  writeFileSync(
    path.join(esm, 'NavDropdown.js'),
    [
      'export default Object.assign(NavDropdown, {',
      '  Item: Dropdown.Item,',
      '  ItemText: Dropdown.ItemText',
      '});',
    ].join('\n'),
  );
  writeFileSync(
    path.join(esm, 'Dropdown.js'),
    ['export default Object.assign(Dropdown, {', '  Item: DropdownItem,', '  ItemText: DropdownItemText', '});'].join(
      '\n',
    ),
  );
  writeFileSync(path.join(esm, 'useOverlayOffset.js'), 'const offset = Tooltip.TOOLTIP_OFFSET;');
  const source = path.join(esm, 'header.tsx');
  writeFileSync(source, '<Navbar><Navbar.Brand /><Navbar.Toggle /><NavDropdown.Item /></Navbar>');
  const used = usedMembers([source], esm);

  it('keeps a member that our sources or react-bootstrap read, and what a kept member reads', () => {
    expect(used).toContain('Brand');
    expect(used).toContain('Toggle');
    expect(used).toContain('Item');
    expect(used).toContain('TOOLTIP_OFFSET');
    expect(used).not.toContain('Offcanvas');
    expect(used).not.toContain('ItemText');
  });

  it('drops the other members, propTypes and displayName', () => {
    const out = pruneModule(navbar, used);
    expect(out).toContain('export default Object.assign(Navbar, {\nBrand: NavbarBrand,\nToggle: NavbarToggle\n});');
    expect(out).not.toMatch(/Offcanvas:|propTypes|PropTypes|displayName/);
  });
});

describe('grid classes', () => {
  it('keeps the classes a breakpoint prop can build, on Col, Row and `as={Col}`', () => {
    const words = gridWords(
      '<Col onClick={() => go()} md={4}>a</Col><Row lg={2} /><Form.Group as={Col} sm={size}><Col xl={{ span: 5, order: 1 }}>',
    );
    expect(words).toEqual(
      expect.arrayContaining(['col-md', 'col-md-12', 'col-md-auto', 'offset-md-0', 'offset-md-11', 'col-sm-7']),
    );
    expect(words).toEqual(expect.arrayContaining(['row-cols-lg-1', 'row-cols-lg-6', 'order-xl-first', 'order-xl-5']));
    expect(words).not.toContain('order-md-1');
    expect(words).not.toContain('col-lg-6');
    expect(words.some((w) => w.includes('xxl'))).toBe(false);
  });

  it('keeps none for a component without breakpoint props', () => {
    expect(gridWords('<Col className="x">a</Col><Button size="sm" />')).toEqual([]);
  });
});

describe('dark colour mode', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dark-'));
  const file = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const html = '<!doctype html>\n<html lang="en" data-bs-theme="dark">';
  const plain = file('a.tsx', '<Modal show>');
  const theme = file('theme.css', "[data-bs-theme='dark'] { --bs-body-bg: #000; }");

  it('holds when <html> is dark and no source sets the attribute on a part of the page', () => {
    expect(alwaysDark(html, [plain, theme])).toBe(true);
  });

  it('does not when a source sets a colour mode, or <html> has none', () => {
    expect(alwaysDark(html, [plain, file('b.tsx', '<Modal data-bs-theme="light">')])).toBe(false);
    expect(alwaysDark('<html lang="en">', [plain])).toBe(false);
  });
});

import { useId, useState, type KeyboardEvent } from 'react';
import { Button, Form, Spinner } from 'react-bootstrap';
import {
  parseTaxonFieldValue,
  taxonFieldValue,
  taxonQualifiers,
  type EventTemplateOption,
  type TaxonHit,
  type TaxonPick,
} from '@bathylog/shared';
import { errorMessage } from '../api/client';
import { taxonSearchMinLength, useTaxonSearch } from '../api/taxa';
import './taxon-picker.css';

/**
 * A taxon option in the event options modal (docs/taxa.md#the-console): the template's common taxa
 * as buttons, a search of the ship's WoRMS taxonomy (three letters, then matches with rank and
 * vernacular name; arrows and Enter pick), the open-nomenclature qualifier, and a count or an
 * abundance bin. Its value is the pick as the shared rules read it (`taxonFieldValue`). Loaded with
 * the modal's first taxon option only (its own chunk).
 */
export default function TaxonPicker({
  option,
  id,
  value,
  invalid,
  onChange,
}: {
  option: EventTemplateOption;
  id: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
}) {
  const pick = parseTaxonFieldValue(value);
  const settings = option.event_option_taxon ?? { quantity: 'count' as const };
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);
  const search = useTaxonSearch(open ? query : '');
  const hits = query.trim().length >= taxonSearchMinLength ? (search.data ?? []) : [];
  const listId = useId();
  const set = (next: TaxonPick | null) => onChange(next ? taxonFieldValue(next) : '');
  const choose = (taxon: { name: string; aphia_id: number }) => {
    set({ ...(pick ?? { qualifier: '' }), name: taxon.name, aphia_id: taxon.aphia_id });
    setQuery('');
    setOpen(false);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!open || hits.length === 0) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : hits.length - 1)) % hits.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const hit = hits[Math.min(active, hits.length - 1)];
      if (hit) choose({ name: hit.scientific_name, aphia_id: hit.aphia_id });
    } else if (e.key === 'Escape') {
      // Closes the list only, not the modal.
      e.stopPropagation();
      setOpen(false);
    }
  };
  const common = settings.common_taxa ?? [];
  const expanded = open && hits.length > 0;

  return (
    <fieldset className="mb-2 taxon-picker" aria-describedby={invalid ? `${id}-feedback` : undefined}>
      <legend className="form-label mb-1 small fs-6">
        {option.event_option_name}
        {option.event_option_required && (
          <span className="text-danger" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </legend>
      {common.length > 0 && (
        <div
          className="d-flex flex-wrap gap-1 mb-2"
          role="group"
          aria-label={`Common taxa for ${option.event_option_name}`}
        >
          {common.map((t) => (
            <Button
              key={t.aphia_id}
              size="sm"
              variant={pick?.aphia_id === t.aphia_id ? 'primary' : 'outline-secondary'}
              aria-pressed={pick?.aphia_id === t.aphia_id}
              onClick={() => choose(t)}
            >
              <i>{t.name}</i>
            </Button>
          ))}
        </div>
      )}
      <Form.Group controlId={`${id}-search`} className="position-relative mb-2">
        <Form.Label className="small mb-0">Search taxa</Form.Label>
        <Form.Control
          size="sm"
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded ? `${listId}-${Math.min(active, hits.length - 1)}` : undefined}
          placeholder="Type three letters of a scientific or common name"
          value={query}
          isInvalid={invalid && !pick}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKey}
        />
        {search.isFetching && query.trim().length >= taxonSearchMinLength && (
          <Spinner size="sm" animation="border" className="position-absolute end-0 me-2" style={{ top: '1.9rem' }}>
            <span className="visually-hidden">Searching taxa</span>
          </Spinner>
        )}
        <ul
          id={listId}
          role="listbox"
          aria-label="Matching taxa"
          className={`list-group taxon-picker-list${expanded ? '' : ' d-none'}`}
        >
          {hits.map((hit, i) => (
            <TaxonOption
              key={hit.aphia_id}
              id={`${listId}-${i}`}
              hit={hit}
              active={i === active}
              onPick={() => choose({ name: hit.scientific_name, aphia_id: hit.aphia_id })}
            />
          ))}
        </ul>
        {open && query.trim().length >= taxonSearchMinLength && search.isSuccess && hits.length === 0 && (
          <div className="small text-muted" role="status">
            No taxa match “{query.trim()}”
          </div>
        )}
        {search.isError && (
          <div className="small text-danger" role="alert">
            {errorMessage(search.error)}
          </div>
        )}
      </Form.Group>
      {pick && (
        <div className="small mb-2" data-testid="taxon-pick">
          Picked: <i>{pick.name}</i> <span className="text-muted">AphiaID {pick.aphia_id}</span>{' '}
          <Button size="sm" variant="link" className="p-0 align-baseline" onClick={() => set(null)}>
            Clear
          </Button>
        </div>
      )}
      <div className="d-flex gap-2">
        <Form.Group controlId={`${id}-qualifier`} className="flex-fill">
          <Form.Label className="small mb-0">Qualifier</Form.Label>
          <Form.Select
            size="sm"
            disabled={!pick}
            value={pick?.qualifier ?? ''}
            onChange={(e) => pick && set({ ...pick, qualifier: e.target.value as TaxonPick['qualifier'] })}
          >
            {taxonQualifiers.map((q) => (
              <option key={q} value={q}>
                {q === '' ? '(none)' : q}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {settings.quantity === 'count' && (
          <Form.Group controlId={`${id}-count`} className="flex-fill">
            <Form.Label className="small mb-0">Count</Form.Label>
            <Form.Control
              size="sm"
              type="text"
              inputMode="numeric"
              disabled={!pick}
              value={pick?.count ?? ''}
              isInvalid={invalid && !!pick}
              onChange={(e) => pick && set({ ...pick, count: e.target.value })}
            />
          </Form.Group>
        )}
        {settings.quantity === 'abundance' && (
          <Form.Group controlId={`${id}-abundance`} className="flex-fill">
            <Form.Label className="small mb-0">Abundance</Form.Label>
            <Form.Select
              size="sm"
              disabled={!pick}
              value={pick?.abundance ?? ''}
              isInvalid={invalid && !!pick}
              onChange={(e) => pick && set({ ...pick, abundance: e.target.value })}
            >
              <option value="" />
              {option.event_option_values.map((bin) => (
                <option key={bin} value={bin}>
                  {bin}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
      </div>
    </fieldset>
  );
}

function TaxonOption({ id, hit, active, onPick }: { id: string; hit: TaxonHit; active: boolean; onPick: () => void }) {
  const vernacular =
    hit.matched_vernacular ?? hit.vernaculars.find((v) => /^en/i.test(v.language))?.name ?? hit.vernaculars[0]?.name;
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={`list-group-item list-group-item-action py-1 px-2 small${active ? ' taxon-option-active' : ''}`}
      // Keeps the focus in the search field, so the keyboard goes on working after a click.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onPick}
    >
      <i>{hit.scientific_name}</i>
      {hit.authority && <span className={active ? '' : 'text-muted'}> {hit.authority}</span>}
      <span className="ms-1 badge text-bg-secondary">{hit.rank ?? 'rank unknown'}</span>
      {hit.status && hit.status !== 'accepted' && <span className="ms-1">({hit.status})</span>}
      {vernacular && <div className={active ? '' : 'text-muted'}>{vernacular}</div>}
    </li>
  );
}

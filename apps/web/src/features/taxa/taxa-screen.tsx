import { useState, type FormEvent } from 'react';
import { Button, Card, Col, Form, ProgressBar, Row, Table } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import {
  capabilityRoles,
  taxonImportKinds,
  taxonQualifiers,
  type LegacyValue,
  type TaxonImportKind,
  type TaxonQualifier,
} from '@bathylog/shared';
import { errorMessage } from '../../api/client';
import { useCruises } from '../../api/records';
import {
  deleteLegacyMapping,
  putLegacyMapping,
  taxaKeys,
  taxonSearchMinLength,
  uploadTaxonomyFile,
  useLegacyValues,
  useSynonymReport,
  useTaxonomyStatus,
  useTaxonSearch,
} from '../../api/taxa';
import { ErrorAlert, SuccessAlert } from '../../components/alerts';
import { RoleGate } from '../../components/role-gate';
import { pageSlice, Pagination } from '../../components/pagination';

const kindLabels: Record<TaxonImportKind, string> = {
  'dwc-taxon': 'WoRMS DwC taxon.txt',
  'dwc-vernacular': 'WoRMS DwC vernacularname.txt',
  'dwc-speciesprofile': 'WoRMS DwC speciesprofile.txt',
  csv: 'CSV subset',
  json: 'JSON subset',
};

/** The taxonomy held, its last imports, and an upload with its progress. */
function TaxonomyCard() {
  const status = useTaxonomyStatus();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<TaxonImportKind>('dwc-taxon');
  const [source, setSource] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) return;
    setMessage(null);
    setProgress(0);
    try {
      const done = await uploadTaxonomyFile(file, kind, source, setProgress);
      setMessage({
        ok: true,
        text: `Imported ${done.taxa} taxa and ${done.vernaculars} vernacular names (${done.source}).${done.message ? ` ${done.message}` : ''}`,
      });
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) });
    } finally {
      setProgress(null);
      await queryClient.invalidateQueries({ queryKey: taxaKeys.all });
    }
  };
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Taxonomy
      </Card.Header>
      <Card.Body>
        {status.error && <ErrorAlert message={errorMessage(status.error)} />}
        <p className="mb-2" data-testid="taxonomy-count">
          {status.data ? `${status.data.taxa.toLocaleString('en-US')} taxa held on this server.` : 'Loading...'}
        </p>
        {status.data && status.data.imports.length > 0 && (
          <Table size="sm" responsive className="small">
            <caption className="visually-hidden">Last imports</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Kind</th>
                <th scope="col">Source</th>
                <th scope="col">State</th>
                <th scope="col">Taxa</th>
                <th scope="col">Vernacular names</th>
              </tr>
            </thead>
            <tbody>
              {status.data.imports.map((i) => (
                <tr key={i.id}>
                  <td>{i.started_at.replace('T', ' ').slice(0, 19)}</td>
                  <td>{i.kind}</td>
                  <td>{i.source}</td>
                  <td title={i.message}>{i.state}</td>
                  <td>{i.taxa}</td>
                  <td>{i.vernaculars}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        <Form onSubmit={(e) => void submit(e)} aria-label="Import taxa">
          <Row className="g-2 align-items-end">
            <Col md={3}>
              <Form.Group controlId="taxa-import-kind">
                <Form.Label className="small mb-0">File</Form.Label>
                <Form.Select size="sm" value={kind} onChange={(e) => setKind(e.target.value as TaxonImportKind)}>
                  {taxonImportKinds.map((k) => (
                    <option key={k} value={k}>
                      {kindLabels[k]}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
            </Col>
            <Col md={4}>
              <Form.Group controlId="taxa-import-file">
                <Form.Label className="small mb-0">Choose the file</Form.Label>
                <Form.Control
                  size="sm"
                  type="file"
                  onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
                />
              </Form.Group>
            </Col>
            <Col md={3}>
              <Form.Group controlId="taxa-import-source">
                <Form.Label className="small mb-0">Version label</Form.Label>
                <Form.Control
                  size="sm"
                  placeholder="e.g. WoRMS DwC 2026-11-01"
                  value={source}
                  onChange={(e) => setSource(e.target.value)}
                />
              </Form.Group>
            </Col>
            <Col md={2}>
              <Button type="submit" size="sm" disabled={!file || progress !== null}>
                Import
              </Button>
            </Col>
          </Row>
        </Form>
        {progress !== null && (
          <ProgressBar
            className="mt-2"
            now={Math.round(progress * 100)}
            label={progress < 1 ? `${Math.round(progress * 100)}% sent` : 'Importing…'}
            aria-label="Import progress"
          />
        )}
        {message &&
          (message.ok ? (
            <SuccessAlert className="mt-2" message={message.text} onClose={() => setMessage(null)} />
          ) : (
            <ErrorAlert className="mt-2" message={message.text} onClose={() => setMessage(null)} />
          ))}
      </Card.Body>
    </Card>
  );
}

/** Maps one template value to a taxon: search, pick, qualifier, save. */
function MappingEditor({ value, onDone }: { value: LegacyValue; onDone: () => void }) {
  const [query, setQuery] = useState('');
  const [aphiaId, setAphiaId] = useState<number | null>(value.mapping?.aphia_id ?? null);
  const [qualifier, setQualifier] = useState<TaxonQualifier>(value.mapping?.qualifier ?? '');
  const [error, setError] = useState('');
  const search = useTaxonSearch(query);
  const hits = query.trim().length >= taxonSearchMinLength ? (search.data ?? []) : [];
  const save = async () => {
    if (aphiaId === null) return;
    try {
      await putLegacyMapping({ scope: value.option, value: value.value, aphia_id: aphiaId, qualifier });
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <div className="border rounded p-2 mt-1" role="group" aria-label={`Map ${value.value}`}>
      <Row className="g-2 align-items-end">
        <Col md={4}>
          <Form.Group controlId={`map-search-${value.option}-${value.value}`}>
            <Form.Label className="small mb-0">Search taxa</Form.Label>
            <Form.Control
              size="sm"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="three letters"
            />
          </Form.Group>
        </Col>
        <Col md={4}>
          <Form.Group controlId={`map-taxon-${value.option}-${value.value}`}>
            <Form.Label className="small mb-0">Taxon</Form.Label>
            <Form.Select
              size="sm"
              value={aphiaId ?? ''}
              onChange={(e) => setAphiaId(e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">{value.mapping ? (value.mapping.scientific_name ?? value.mapping.aphia_id) : ''}</option>
              {hits.map((h) => (
                <option key={h.aphia_id} value={h.aphia_id}>
                  {h.scientific_name} ({h.rank ?? 'rank unknown'})
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col md={2}>
          <Form.Group controlId={`map-qualifier-${value.option}-${value.value}`}>
            <Form.Label className="small mb-0">Qualifier</Form.Label>
            <Form.Select size="sm" value={qualifier} onChange={(e) => setQualifier(e.target.value as TaxonQualifier)}>
              {taxonQualifiers.map((q) => (
                <option key={q} value={q}>
                  {q === '' ? '(none)' : q}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col md={2} className="d-flex gap-1">
          <Button size="sm" disabled={aphiaId === null} onClick={() => void save()}>
            Save
          </Button>
          <Button size="sm" variant="secondary" onClick={onDone}>
            Cancel
          </Button>
        </Col>
      </Row>
      {error && <ErrorAlert className="mt-2 mb-0" message={error} />}
    </div>
  );
}

/**
 * The templates' choice values (old morphotype buttons) and the taxon each maps to. Old events are
 * not changed: exports and the synonym report read the mapping, and keep the value as the verbatim
 * identification.
 */
const legacyPageSize = 25;

function LegacyMappingsCard() {
  const values = useLegacyValues();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState('');
  // A vessel's templates offer hundreds of choice values: a filter and pages keep the card short.
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const refresh = () => queryClient.invalidateQueries({ queryKey: taxaKeys.all });
  const keyOf = (v: LegacyValue) => `${v.option}\n${v.value}`;
  const needle = filter.trim().toLowerCase();
  const shown = (values.data ?? []).filter(
    (v) => !needle || [v.template, v.option, v.value].some((t) => t.toLowerCase().includes(needle)),
  );
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Legacy Option Mappings
      </Card.Header>
      <Card.Body>
        {values.error && <ErrorAlert message={errorMessage(values.error)} />}
        {error && <ErrorAlert message={error} onClose={() => setError('')} />}
        {values.data && values.data.length === 0 && <p className="mb-0">No template offers choice values.</p>}
        {values.data && values.data.length > 0 && (
          <Form.Control
            type="search"
            size="sm"
            className="mb-2"
            placeholder="Filter by template, option or value"
            aria-label="Filter template values"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value);
              setPage(1);
            }}
          />
        )}
        {values.data && values.data.length > 0 && (
          <Table size="sm" responsive className="small mb-0">
            <caption className="visually-hidden">Template values and their taxa</caption>
            <thead>
              <tr>
                <th scope="col">Template</th>
                <th scope="col">Option</th>
                <th scope="col">Value</th>
                <th scope="col">Taxon</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pageSlice(shown, page, legacyPageSize).map((v) => (
                <tr key={keyOf(v)}>
                  <td>{v.template}</td>
                  <td>{v.option}</td>
                  <td>{v.value}</td>
                  <td colSpan={editing === keyOf(v) ? 2 : 1}>
                    {v.mapping ? (
                      <>
                        <i>{v.mapping.scientific_name ?? `AphiaID ${v.mapping.aphia_id}`}</i>
                        {v.mapping.qualifier && ` ${v.mapping.qualifier}`}
                      </>
                    ) : (
                      <span className="text-body-secondary">not mapped</span>
                    )}
                    {editing === keyOf(v) && (
                      <MappingEditor
                        value={v}
                        onDone={() => {
                          setEditing(null);
                          void refresh();
                        }}
                      />
                    )}
                  </td>
                  {editing !== keyOf(v) && (
                    <td className="text-end text-nowrap">
                      <Button size="sm" variant="link" className="p-0 me-2" onClick={() => setEditing(keyOf(v))}>
                        {v.mapping ? 'Change' : 'Map'}
                        <span className="visually-hidden"> {v.value}</span>
                      </Button>
                      {v.mapping && (
                        <Button
                          size="sm"
                          variant="link"
                          className="p-0 text-danger"
                          onClick={() =>
                            void deleteLegacyMapping(v.mapping!.id)
                              .then(refresh)
                              .catch((err: unknown) => setError(errorMessage(err)))
                          }
                        >
                          Remove<span className="visually-hidden"> the mapping of {v.value}</span>
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        <Pagination
          page={page}
          total={shown.length}
          pageSize={legacyPageSize}
          label="Template values pages"
          className="mt-2 mb-0"
          onChange={setPage}
        />
      </Card.Body>
    </Card>
  );
}

/** Names logged in a cruise whose WoRMS status changed since (docs/taxa.md#the-synonym-report). */
function SynonymReportCard() {
  const cruises = useCruises();
  const [cruiseId, setCruiseId] = useState('');
  const report = useSynonymReport('cruise', cruiseId || undefined);
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6 mb-0">
        Synonym Report
      </Card.Header>
      <Card.Body>
        <Form.Group controlId="synonym-report-cruise" className="mb-2" style={{ maxWidth: '20rem' }}>
          <Form.Label className="small mb-0">Cruise</Form.Label>
          <Form.Select size="sm" value={cruiseId} onChange={(e) => setCruiseId(e.target.value)}>
            <option value="" />
            {(cruises.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.cruise_id}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {report.error && <ErrorAlert message={errorMessage(report.error)} />}
        {report.isFetching && <p className="small">Reading the cruise&apos;s events…</p>}
        {report.data && report.data.length === 0 && (
          <p className="mb-0" role="status">
            Every name logged in this cruise is accepted in the taxonomy held.
          </p>
        )}
        {report.data && report.data.length > 0 && (
          <Table size="sm" responsive className="small mb-0">
            <caption className="visually-hidden">Names whose status changed</caption>
            <thead>
              <tr>
                <th scope="col">Logged name</th>
                <th scope="col">AphiaID</th>
                <th scope="col">Via</th>
                <th scope="col">Status now</th>
                <th scope="col">Accepted name</th>
                <th scope="col">Events</th>
              </tr>
            </thead>
            <tbody>
              {report.data.map((r) => (
                <tr key={`${r.via}-${r.option}-${r.name}-${r.aphia_id}`}>
                  <td>
                    <i>{r.name}</i>
                    {r.current_name && <div>now: {r.current_name}</div>}
                  </td>
                  <td>{r.aphia_id}</td>
                  <td>
                    {r.via}: {r.option}
                  </td>
                  <td>{r.status ?? 'not in the taxonomy'}</td>
                  <td>{r.accepted_name ? `${r.accepted_name} (${r.accepted_aphia_id})` : ''}</td>
                  <td>{r.events}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}

/** /taxa: the ship's WoRMS taxonomy, legacy mappings and the synonym report; admins only. */
export function TaxaScreen() {
  return (
    <RoleGate roles={capabilityRoles.adminOnly} redirectTo="/">
      <h1 className="h5 mb-3">Taxa</h1>
      <TaxonomyCard />
      <LegacyMappingsCard />
      <SynonymReportCard />
    </RoleGate>
  );
}

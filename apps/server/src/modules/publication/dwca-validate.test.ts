import { publicationSettingsSchema } from '@bathylog/shared';
import { describe, expect, it } from 'vitest';
import { buildEml, buildMeta, buildTables, type ArchiveInput, type RecordMeta } from './dwca-build.js';
import { validateArchive } from './dwca-validate.js';
import type { TaxonRecord } from './taxa.js';

/** A small valid archive (real WoRMS taxa), then one fault at a time. */
const ophiuroidea: TaxonRecord = {
  aphiaId: 123084,
  name: 'Ophiuroidea',
  authority: 'Gray, 1840',
  rank: 'Class',
  status: 'accepted',
  acceptedAphiaId: 123084,
  parentAphiaId: 1806,
};
const settings = publicationSettingsSchema.parse({});
const cruise: RecordMeta = {
  id: '6400d0e5c476e18a7cf0a0f1',
  humanId: 'FKt230303',
  start: Date.parse('2023-03-03T00:00:00Z'),
  stop: Date.parse('2023-04-11T23:59:59Z'),
  location: 'Lost City, Mid-Atlantic Ridge',
  title: 'In Search of Hydrothermal Lost Cities',
  description: 'Falkor (too) <inaugural> expedition & more',
  pi: 'Dr. David Butterfield',
  vessel: 'R/V Falkor (too)',
};
const dive: RecordMeta = {
  ...cruise,
  id: '6410f3a3c476e18a7cf0a0f2',
  humanId: 'S0492',
  start: Date.parse('2023-03-14T22:15:39Z'),
  stop: Date.parse('2023-03-15T08:32:32Z'),
  location: 'Kane FZ',
};
const input: ArchiveInput = {
  kind: 'lowering',
  cruise,
  dives: [dive],
  settings,
  observations: [
    {
      eventId: '6410f3a3c476e18a7cf0b001',
      ts: Date.parse('2023-03-14T23:50:00Z'),
      dive: 'S0492',
      author: 'pi',
      eventValue: 'OBSERVATION',
      position: { lat: 23.5489, lon: -45.1499, depth: 1980.5, uncertainty: 10, from: 'vehicle' },
      taxa: [
        {
          key: 'taxon',
          chosen: ophiuroidea,
          published: ophiuroidea,
          qualifier: 'sp.',
          verbatim: 'Ophiuroidea sp.',
          count: 2,
          abundance: null,
        },
      ],
      measurements: [{ mapping: settings.measurements[0]!, value: 3.6 }],
      media: [],
    },
  ],
};
const valid = () => ({
  ...buildTables(input),
  'meta.xml': buildMeta(),
  'eml.xml': buildEml(input, { bbox: null, taxa: [{ rank: 'Class', name: 'Ophiuroidea' }] }),
});
const taxa = new Map([[123084, ophiuroidea]]);
const validate = (files: Record<string, string>) => validateArchive(files, { taxa });

/** Replaces one cell of a tab-separated file (row 1 = first data row). */
function setCell(text: string, row: number, column: string, value: string): string {
  const lines = text.split('\n');
  const index = lines[0]!.split('\t').indexOf(column);
  const cells = lines[row]!.split('\t');
  cells[index] = value;
  lines[row] = cells.join('\t');
  return lines.join('\n');
}

describe('the archive validator', () => {
  it('passes a well-formed archive', async () => {
    expect(await validate(valid())).toEqual({ errors: [], warnings: [] });
  });

  it('catches a broken parentEventID', async () => {
    const files = valid();
    files['event.txt'] = setCell(files['event.txt'], 3, 'parentEventID', 'FKt230303_S9999');
    const { errors } = await validate(files);
    expect(errors).toEqual([
      {
        file: 'event.txt',
        line: 4,
        field: 'parentEventID',
        message: 'parentEventID FKt230303_S9999 names no event of the archive',
      },
    ]);
  });

  it('catches an occurrence whose event is missing, and duplicate ids', async () => {
    const files = valid();
    files['occurrence.txt'] = setCell(files['occurrence.txt'], 1, 'eventID', 'nowhere');
    files['event.txt'] = setCell(files['event.txt'], 2, 'eventID', 'FKt230303');
    const { errors } = await validate(files);
    expect(errors.map((e) => e.message)).toEqual(
      expect.arrayContaining(['eventID FKt230303 is not unique', 'eventID nowhere names no event of the archive']),
    );
  });

  it('catches a missing required field', async () => {
    const files = valid();
    files['occurrence.txt'] = setCell(files['occurrence.txt'], 1, 'scientificNameID', '');
    const occ = await validate(files);
    expect(occ.errors).toEqual([
      {
        file: 'occurrence.txt',
        line: 2,
        field: 'scientificNameID',
        message: 'scientificNameID, which OBIS requires, is empty',
      },
    ]);
    const noPosition = valid();
    noPosition['event.txt'] = setCell(
      setCell(noPosition['event.txt'], 3, 'decimalLatitude', ''),
      3,
      'decimalLongitude',
      '',
    );
    const { errors } = await validate(noPosition);
    expect(errors.map((e) => e.field)).toEqual(['decimalLatitude', 'decimalLongitude']);
  });

  it('catches out-of-range coordinates and depths', async () => {
    const files = valid();
    files['event.txt'] = setCell(files['event.txt'], 3, 'decimalLatitude', '95.2');
    files['event.txt'] = setCell(files['event.txt'], 3, 'minimumDepthInMeters', '-4');
    const { errors } = await validate(files);
    expect(errors.map((e) => e.message)).toEqual([
      'decimalLatitude 95.2 is outside -90..90',
      'minimumDepthInMeters -4 is outside 0..11000',
    ]);
  });

  it('catches a name that does not match its AphiaID in the taxonomy, and warns of unknown ones', async () => {
    const files = valid();
    files['occurrence.txt'] = setCell(files['occurrence.txt'], 1, 'scientificName', 'Asteroidea');
    expect((await validate(files)).errors.map((e) => e.message)).toEqual([
      'scientificName Asteroidea is not the name of AphiaID 123084 (Ophiuroidea)',
    ]);
    const unknown = await validateArchive(valid(), { taxa: new Map() });
    expect(unknown.errors).toEqual([]);
    expect(unknown.warnings.map((w) => w.message)).toEqual([
      "AphiaID 123084 is not in the ship's taxonomy: its name could not be checked",
    ]);
  });

  it('catches meta.xml naming a field the file lacks, and a meta.xml against its schema', async () => {
    const files = valid();
    files['meta.xml'] = files['meta.xml'].replace(
      '<field index="12" term="http://rs.tdwg.org/dwc/terms/eventRemarks"/>',
      '<field index="12" term="http://rs.tdwg.org/dwc/terms/eventRemarks"/>\n    <field index="13" term="http://rs.tdwg.org/dwc/terms/habitat"/>',
    );
    expect((await validate(files)).errors.map((e) => e.message)).toEqual([
      'event.txt has no column 13 for http://rs.tdwg.org/dwc/terms/habitat',
    ]);
    const broken = valid();
    broken['meta.xml'] = broken['meta.xml'].replace(/<files>\s*<location>occurrence.txt<\/location>\s*<\/files>/, '');
    const { errors } = await validate(broken);
    expect(errors[0]).toMatchObject({
      file: 'meta.xml',
      message: expect.stringMatching(/^does not validate against the Darwin Core text guide schema: .*coreid/),
    });
  });

  it('catches an eml.xml outside the metadata profile', async () => {
    const files = valid();
    files['eml.xml'] = files['eml.xml'].replace(/\s*<contact>.*<\/contact>/, '');
    const { errors } = await validate(files);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      file: 'eml.xml',
      message: expect.stringMatching(/GBIF metadata profile schema/),
    });
  });

  it('escapes stored text in the XML and keeps tabs and line breaks out of the tables', () => {
    const files = valid();
    expect(files['eml.xml']).toContain('Falkor (too) &lt;inaugural&gt; expedition &amp; more');
    const tricky: ArchiveInput = {
      ...input,
      observations: [{ ...input.observations[0]!, author: 'pi\tx\ny' }],
    };
    const occ = buildTables(tricky)['occurrence.txt'].split('\n');
    expect(occ).toHaveLength(3);
    expect(occ[1]).toContain('\tpi x y\t');
  });
});

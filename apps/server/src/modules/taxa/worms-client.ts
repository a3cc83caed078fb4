import { z } from 'zod/mini';
import { AppError } from '../../lib/app-error.js';
import type { TaxonInput } from '../../taxonomy/taxonomy.repository.js';

/**
 * The WoRMS REST service (docs/taxa.md#fetching-from-worms), asked only when an admin fetches names.
 * Answers are checked before anything is stored; a slow, unreachable or odd service is a 503 that
 * names the host (never the URL's credentials) and leaves the taxonomy as it was.
 */

const aphiaId = z.int().check(z.positive(), z.lte(2147483647));
const text = (max: number) => z.nullish(z.string().check(z.maxLength(max)));

const aphiaRecordSchema = z.object({
  AphiaID: aphiaId,
  scientificname: z.string().check(z.minLength(1), z.maxLength(300)),
  authority: text(300),
  status: text(50),
  rank: text(50),
  valid_AphiaID: z.nullish(aphiaId),
  parentNameUsageID: z.nullish(aphiaId),
  isMarine: z.nullish(z.union([z.number(), z.boolean()])),
});
export type AphiaRecord = z.infer<typeof aphiaRecordSchema>;

interface ClassificationNode {
  AphiaID: number;
  rank?: string | null;
  scientificname: string;
  child?: ClassificationNode | null;
}
const classificationSchema: z.ZodMiniType<ClassificationNode> = z.object({
  AphiaID: aphiaId,
  rank: text(50),
  scientificname: z.string().check(z.minLength(1), z.maxLength(300)),
  get child() {
    return z.nullish(classificationSchema);
  },
});

const vernacularsSchema = z.array(
  z.object({ vernacular: z.string().check(z.minLength(1), z.maxLength(300)), language_code: text(20) }),
);

/** Largest answer read (a name with many homonyms is a few kB). */
const maxAnswerBytes = 2 * 1024 * 1024;

export class WormsClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  private get host(): string {
    try {
      return new URL(this.baseUrl).host;
    } catch {
      return 'the configured WoRMS service';
    }
  }

  /** GET `path` under the base URL: the parsed JSON, or null for WoRMS's "nothing found" (204). */
  private async get(path: string): Promise<unknown> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/${path}`;
    const unreachable = () => new AppError('SERVICE_UNAVAILABLE', `WoRMS could not be reached at ${this.host}`);
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch {
      throw unreachable();
    }
    if (res.status === 204 || res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new AppError('SERVICE_UNAVAILABLE', `WoRMS at ${this.host} answered ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxAnswerBytes) {
      await res.body?.cancel();
      throw new AppError('SERVICE_UNAVAILABLE', `WoRMS at ${this.host} answered more than expected`);
    }
    let body: string;
    try {
      body = await readCapped(res, maxAnswerBytes);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', `WoRMS at ${this.host} answered more than expected`);
    }
    if (body.trim() === '') return null;
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', `WoRMS at ${this.host} answered something other than JSON`);
    }
  }

  private parse<T>(schema: z.ZodMiniType<T>, value: unknown, what: string): T {
    const checked = schema.safeParse(value);
    if (!checked.success)
      throw new AppError('SERVICE_UNAVAILABLE', `WoRMS at ${this.host} answered an unexpected ${what}`);
    return checked.data;
  }

  /** Records whose name is exactly `name` (WoRMS may hold homonyms and unaccepted spellings). */
  async recordsByName(name: string): Promise<AphiaRecord[]> {
    const answer = await this.get(
      `AphiaRecordsByName/${encodeURIComponent(name)}?like=false&marine_only=false&offset=1`,
    );
    return answer === null ? [] : this.parse(z.array(aphiaRecordSchema), answer, 'record list');
  }

  async recordById(id: number): Promise<AphiaRecord | undefined> {
    const answer = await this.get(`AphiaRecordByAphiaID/${id}`);
    return answer === null ? undefined : this.parse(aphiaRecordSchema, answer, 'record');
  }

  /** The classification from the root down to the taxon, as [{AphiaID, scientificname, rank}], root first. */
  async classification(id: number): Promise<Array<{ aphia_id: number; name: string; rank: string | null }>> {
    const answer = await this.get(`AphiaClassificationByAphiaID/${id}`);
    if (answer === null) return [];
    const out: Array<{ aphia_id: number; name: string; rank: string | null }> = [];
    let node: ClassificationNode | null | undefined = this.parse(classificationSchema, answer, 'classification');
    while (node && out.length < 100) {
      out.push({ aphia_id: node.AphiaID, name: node.scientificname, rank: node.rank ?? null });
      node = node.child;
    }
    return out;
  }

  async vernaculars(id: number): Promise<Array<{ name: string; language: string }>> {
    const answer = await this.get(`AphiaVernacularsByAphiaID/${id}`);
    if (answer === null) return [];
    return this.parse(vernacularsSchema, answer, 'vernacular list').map((v) => ({
      name: v.vernacular,
      language: v.language_code ?? '',
    }));
  }
}

async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) throw new Error('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A WoRMS record as the taxonomy stores it. */
export function taxonOf(r: AphiaRecord): TaxonInput {
  return {
    aphia_id: r.AphiaID,
    scientific_name: r.scientificname,
    authority: r.authority ?? null,
    rank: r.rank ?? null,
    status: r.status ?? null,
    accepted_aphia_id: r.valid_AphiaID ?? null,
    parent_aphia_id: r.parentNameUsageID ?? null,
    is_marine: r.isMarine === null || r.isMarine === undefined ? null : Boolean(r.isMarine),
  };
}

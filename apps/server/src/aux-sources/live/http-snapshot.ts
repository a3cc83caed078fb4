import { z } from 'zod';
import type { SourceDeps } from './config.js';
import { CameraSource, cameraFields, cameraOptions, checkCameras, toCameras, type CameraEntry } from './frame-grab.js';
import { safeMessage, withoutCredentials } from './health.js';

const httpUrl = z
  .string({ message: 'url must be an http:// or https:// URL' })
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'url must be an http:// or https:// URL');

/**
 * One camera (`camera`, `url`: the encoder's snapshot URL, `http://user:password@encoder/snapshot.jpg`,
 * whose user and password go as Basic auth) or several (`cameras:`).
 */
export const httpSnapshotConfigSchema = z
  .object({
    ...cameraFields(httpUrl),
    ...cameraOptions,
    /** The largest image accepted, in bytes. */
    max_bytes: z
      .number({ message: 'max_bytes must be a number' })
      .int()
      .positive()
      .default(20 * 1024 * 1024),
  })
  .strict()
  .superRefine(checkCameras)
  .transform(toCameras);
export type HttpSnapshotConfig = z.infer<typeof httpSnapshotConfigSchema>;

interface HttpCamera extends CameraEntry {
  target: string;
  headers: Record<string, string>;
  secrets: string[];
}

/**
 * A camera's HTTP snapshot URL, the interface video encoders usually offer: one GET answers one
 * JPEG. Credentials in the URL are sent as a Basic authorization header and never appear in a
 * message, a log line or health.
 */
export class HttpSnapshotSource extends CameraSource<HttpCamera> {
  constructor(
    private readonly config: HttpSnapshotConfig,
    deps: SourceDeps,
    now?: () => number,
  ) {
    super(config.cameras.map(toHttpCamera), config, deps, now);
  }

  protected async grab(camera: HttpCamera, signal: AbortSignal): Promise<Uint8Array> {
    const response = await fetch(camera.target, { headers: camera.headers, signal, redirect: 'error' });
    const limit = this.config.max_bytes;
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status} ${response.statusText} from ${withoutCredentials(camera.target)}`);
    }
    if (Number(response.headers.get('content-length')) > limit) {
      await response.body?.cancel();
      throw new Error(`the image is larger than ${limit} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > limit) throw new Error(`the image is larger than ${limit} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  protected describe(camera: HttpCamera, error: unknown): string {
    return safeMessage(error, camera.secrets);
  }
}

/** The URL without its credentials, which become a Basic authorization header. */
function toHttpCamera(entry: CameraEntry): HttpCamera {
  const url = new URL(entry.url);
  const headers: Record<string, string> = { accept: 'image/jpeg' };
  const secrets: string[] = [];
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    secrets.push(password, url.password);
  }
  url.username = '';
  url.password = '';
  return { ...entry, target: url.toString(), headers, secrets };
}

import { z } from 'zod';
import type { SourceDeps } from './config.js';
import { CameraSource, cameraOptions } from './frame-grab.js';
import { safeMessage, withoutCredentials } from './health.js';

export const httpSnapshotConfigSchema = z
  .object({
    /** The encoder's snapshot URL (`http://user:password@encoder/snapshot.jpg`): user and password go as Basic auth. */
    url: z
      .string({ message: 'url must be an http:// or https:// URL' })
      .refine(
        (u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol),
        'url must be an http:// or https:// URL',
      ),
    /** The largest image accepted, in bytes. */
    max_bytes: z
      .number({ message: 'max_bytes must be a number' })
      .int()
      .positive()
      .default(20 * 1024 * 1024),
    ...cameraOptions,
  })
  .strict();
export type HttpSnapshotConfig = z.infer<typeof httpSnapshotConfigSchema>;

/**
 * A camera's HTTP snapshot URL, the interface video encoders usually offer: one GET answers one
 * JPEG. Credentials in the URL are sent as a Basic authorization header and never appear in a
 * message, a log line or health.
 */
export class HttpSnapshotSource extends CameraSource {
  private readonly target: string;
  private readonly headers: Record<string, string> = { accept: 'image/jpeg' };
  private readonly secrets: string[] = [];

  constructor(
    private readonly config: HttpSnapshotConfig,
    deps: SourceDeps,
    now?: () => number,
  ) {
    super(config, deps, now);
    const url = new URL(config.url);
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      this.headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      this.secrets.push(password, url.password);
    }
    url.username = '';
    url.password = '';
    this.target = url.toString();
  }

  protected async grab(signal: AbortSignal): Promise<Uint8Array> {
    const response = await fetch(this.target, { headers: this.headers, signal, redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status} ${response.statusText} from ${withoutCredentials(this.target)}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > this.config.max_bytes) {
      await response.body?.cancel();
      throw new Error(`the image is larger than ${this.config.max_bytes} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > this.config.max_bytes) throw new Error(`the image is larger than ${this.config.max_bytes} bytes`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  protected describe(error: unknown): string {
    return safeMessage(error, this.secrets);
  }
}

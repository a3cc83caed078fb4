import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type nodemailerModule from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { lazyPackage } from './lazy-package.js';

/** nodemailer, loaded by a server that has an SMTP server configured. */
const loadNodemailer = lazyPackage<typeof nodemailerModule>('nodemailer');

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
}

/**
 * Sends mail through SMTP when configured. A ship without mail still works: each message is
 * written to <data>/outbox/ and its text logged, so an operator can hand a reset link on.
 */
export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    const smtp = config.smtp;
    this.transport = smtp.host
      ? loadNodemailer().createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.password ?? '' } } : {}),
        })
      : null;
  }

  get outboxDir(): string {
    return path.join(this.config.dataDir, 'outbox');
  }

  /** Never throws: a mail failure is logged, as in Sealog, and never fails the request. */
  async send(mail: Mail): Promise<void> {
    const to = Array.isArray(mail.to) ? mail.to.join(', ') : mail.to;
    if (!to) return;
    try {
      if (this.transport) {
        await this.transport.sendMail({ from: this.config.smtp.from, to, subject: mail.subject, text: mail.text });
        return;
      }
      await mkdir(this.outboxDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, '_').slice(0, 80);
      const file = path.join(this.outboxDir, `${stamp}-${safeTo}.txt`);
      const body = `From: ${this.config.smtp.from}\nTo: ${to}\nSubject: ${mail.subject}\nDate: ${new Date().toUTCString()}\n\n${mail.text}\n`;
      await writeFile(file, body, { mode: 0o600 });
      this.log.info({ to, subject: mail.subject, file }, `mail (no SMTP configured) written to outbox:\n${mail.text}`);
    } catch (err) {
      this.log.error({ err, to, subject: mail.subject }, 'mail could not be sent');
    }
  }
}

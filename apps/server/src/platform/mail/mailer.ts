import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../clock/clock';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

/**
 * SMTP when SMTP_URL is set; otherwise each mail is written to DATA_DIR/outbox as an .eml file and
 * logged, so a laptop install still shows the password-reset link somewhere.
 */
export function createMailer(
  options: { smtpUrl: string | null; from: string; outboxDir: string },
  log: Logger,
  clock: Clock = systemClock,
): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    // A pooled transport (`?pool=true`) reports a dropped idle connection as an 'error' event;
    // sends still fail through their own promise, so the event is only logged.
    transport.on('error', (error) => log.warn({ err: error }, 'SMTP transport error'));
    return {
      mode: 'smtp',
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(
        options.outboxDir,
        `${clock.now().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
      );
      // Written under a temporary name and renamed: a reader never sees half a message.
      await writeFile(`${file}.tmp`, info.message as Buffer);
      await rename(`${file}.tmp`, file);
      log.info(
        { to: message.to, subject: message.subject, file },
        'mail written to the outbox (set SMTP_URL to send it)',
      );
    },
  };
}

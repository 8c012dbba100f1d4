import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP peer that keeps what it receives. */
export async function startSmtp(): Promise<{ url: string; inbox: ReceivedMail[]; stop(): Promise<void> }> {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

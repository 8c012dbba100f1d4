// The providers of the connectors bench (webdav-server and s3rver), in a process of their own: the
// bench's polls, RSS sampling and curl bookkeeping would otherwise share their event loop, and every
// receiver's speed depends on how fast they send. Forked by `connectors.bench.ts`; it answers one
// message with where the file is, and stops on `stop` (or when the bench goes away).
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../apps/server/src/platform/clock/clock';
import { createDrive } from '../apps/server/src/platform/drives/create-drive';
import { startS3 } from '../apps/server/test/helpers/s3';
import { startWebdav } from '../apps/server/test/helpers/webdav';
import { writeWav } from '../apps/server/test/helpers/wav';

export interface ProvidersReady {
  dav: { url: string; username: string; password: string };
  s3: Awaited<ReturnType<typeof startS3>>['drive'];
  fileName: string;
  size: number;
  sha256: string;
}

export const PROVIDERS_FILE = 'bench-take.wav';

async function main(): Promise<void> {
  const bytes = Number(process.env.BENCH_CONNECTOR_BYTES);
  const [dav, s3] = await Promise.all([startWebdav(), startS3()]);
  const stop = async () => {
    await Promise.all([dav.stop(), s3.stop()]);
    process.exit(0);
  };
  process.on('message', (message) => (message === 'stop' ? void stop() : undefined));
  process.on('disconnect', () => void stop());
  // The file once, on both: in the WebDAV folder on disk, and PUT into the bucket.
  const source = join(dav.directory, PROVIDERS_FILE);
  // A 16-bit stereo WAV (an audio file is what the import accepts), whole seconds: about `bytes`.
  const { size, sha256 } = await writeWav(source, bytes);
  const bucket = createDrive(s3.drive, { allowHosts: ['127.0.0.1'], timeoutMs: 60_000 }, systemClock);
  await bucket.write(`/${PROVIDERS_FILE}`, createReadStream(source), size);
  const ready: ProvidersReady = {
    dav: { url: dav.url, username: dav.username, password: dav.password },
    s3: s3.drive,
    fileName: PROVIDERS_FILE,
    size,
    sha256,
  };
  process.send!(ready);
}

if (process.send) void main();

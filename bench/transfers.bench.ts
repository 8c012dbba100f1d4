/**
 * Transfers on the disk driver, each against a baseline measured in the same run:
 * (a) a transfer sent from the /transfer page in Debian's Chromium (file input → upload orchestrator →
 *     parallel parts to signed part URLs) against the same browser sending the same file to a bare Node
 *     sink on loopback with the same part size and parts in flight;
 * (b) the recipient's "Download all" ZIP of that transfer over HTTP against reading its blob file;
 * (c) the recipient page's first waveform of a 60-minute file, against its first contentful paint.
 * BENCH_TRANSFER_GB sets the size of (a) and (b) (default 2; 0.2 for a quick run).
 */
import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import type { PublicTransferContent, TransferDetail } from '@mixroom/contracts';
import { choosePartSize } from '../apps/server/src/modules/uploads/uploads.service';
import { call } from '../apps/server/test/helpers/api';
import { generateAudio } from '../apps/server/test/helpers/audio';
import { signInThroughOidc } from '../apps/server/test/helpers/oidc-flow';
import { startTestServer, type TestServer } from '../apps/server/test/helpers/test-server';
import { sendTransfer, transferForm } from '../apps/server/test/helpers/transfers';
import { waitFor } from '../apps/server/test/helpers/wait-for';
import { launchBrowser, signInAt } from '../e2e/helpers/browser';

/** Each round stores one more transfer. */
const UPLOAD_ROUNDS = 2;
const ZIP_RUNS = 3;
const WAVEFORM_RUNS = 5;
/** Parts the web's upload engine keeps in flight for one file (its default). */
const PARTS_IN_FLIGHT = 4;
const SENT_TEXT = 'Your transfer has been sent!';
const ACCOUNT = { email: 'ana@bench.example.com', password: 'ana-password-1', displayName: 'Ana' };
const MB = 1e6;
const execFileAsync = promisify(execFile);
/** Progress on stderr: a 2 GB run takes minutes. */
const step = (what: string) => console.error(`[transfers ${new Date().toISOString().slice(11, 19)}] ${what}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);
const oneDecimal = (value: number) => value.toFixed(1);
const load = () => loadavg().map(oneDecimal).join(' ');

/** Random bytes on disk (streamed by head from the kernel, never the whole file in memory). */
const writeRandomFile = (path: string, bytes: number) =>
  execFileSync('sh', ['-c', 'head -c "$0" /dev/urandom > "$1"', String(bytes), path]);

/**
 * The sink's page: a file input, and a send over fetch either in parts of `size` with `parallel` in
 * flight, as the upload engine sends them, or as one request (`parallel` 0), each to `{to}/{offset}`.
 * Plain script, so the benchmark's own compiled code never runs in the page.
 */
const SINK_PAGE = `<!doctype html><input type="file" id="file"><script>
async function put(path, body) {
  if (!(await fetch(path, { method: 'PUT', body })).ok) throw new Error('the sink refused ' + path);
}
window.send = async (size, parallel, to) => {
  const file = document.querySelector('#file').files[0];
  const start = performance.now();
  const pending = Array.from({ length: Math.ceil(file.size / size) }, (_, i) => i);
  async function worker() {
    for (let i = pending.shift(); i !== undefined; i = pending.shift())
      await put(to + '/' + i * size, file.slice(i * size, Math.min(file.size, (i + 1) * size)));
  }
  await (parallel === 0 ? put(to + '/0', file) : Promise.all(Array.from({ length: parallel }, worker)));
  return performance.now() - start;
};
</script>`;

/**
 * A bare HTTP server on loopback that serves the sink's page and drains every PUT body (/drain/…),
 * or writes it into `target` at its offset (/disk/{offset}), as the disk driver stores a part.
 */
async function startSink(target: string): Promise<{ url: string; received: () => number; server: Server }> {
  let received = 0;
  const server = createServer((request, response) => {
    if (request.method !== 'PUT') return response.writeHead(200, { 'Content-Type': 'text/html' }).end(SINK_PAGE);
    request.on('data', (chunk: Buffer) => (received += chunk.length));
    const [, to, offset] = (request.url ?? '').split('/');
    const sink =
      to === 'disk'
        ? createWriteStream(target, { flags: 'r+', start: Number(offset) })
        : new Writable({ write: (_chunk, _encoding, callback) => callback() });
    request.pipe(sink).on('finish', () => response.writeHead(200, { ETag: `"${received}"` }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received, server };
}

/**
 * The page's fetches since its last call, from Resource Timing: the part PUTs (how many, their mean
 * time, the first start and the last end) and the upload API calls around them (their mean time).
 */
async function fetchTimings(page: Page) {
  const entries = await page.evaluate(() => {
    const all = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      (e) => [e.name, e.startTime, e.responseEnd] as const,
    );
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(100_000);
    return all;
  });
  const mean = (list: typeof entries) => list.reduce((sum, [, start, end]) => sum + end - start, 0) / list.length;
  const parts = entries.filter(([name]) => /\/api\/blob\/part|\/(drain|disk)\//.test(name));
  const calls = entries.filter(([name]) => name.includes('/api/uploads/'));
  const [first, last] = [Math.min(...parts.map((e) => e[1])), Math.max(...parts.map((e) => e[2]))];
  return { count: parts.length, partMs: mean(parts), callMs: mean(calls), first, last };
}

/**
 * Sends `path` from the /transfer page and waits until the server has checked it (SHA-256, probe).
 * Times: click on Transfer → 'Your transfer has been sent!' (total), click → first part PUT (the
 * transfer created, the ticket, its session, the first part URL), last part → 'sent' (the part
 * recorded, the file assembled, the transfer sent), and the part PUTs and API calls.
 */
async function sendFromTransferPage(page: Page, server: TestServer, token: string, path: string, name: string) {
  await page.goto(`${server.url}/transfer`);
  await page.getByTestId('transfer-files-input').setInputFiles(path);
  await page.getByText('Selected files 1').waitFor();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Message').fill('The session, for the benchmark.');
  const button = page.getByRole('button', { name: 'Transfer', exact: true });
  // Playwright's checks before a click (visible, stable, enabled) took ~2 s here: done first. Both ends
  // are taken in the page: the click event, and the mutation that shows the success text (Playwright
  // polls a waiting locator every 500 ms after the first second).
  await button.hover();
  await fetchTimings(page);
  type Marks = { __clickedAt: number; __sentAt: number };
  await page.evaluate((text) => {
    const w = window as unknown as Marks;
    document.addEventListener('click', () => (w.__clickedAt = performance.now()), { capture: true, once: true });
    new MutationObserver((_records, observer) => {
      if (!document.body.textContent?.includes(text)) return;
      w.__sentAt = performance.now();
      observer.disconnect();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, SENT_TEXT);
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Success' });
  await dialog.getByText(SENT_TEXT).waitFor({ timeout: 3_600_000 });
  const [start, end] = await page.evaluate(() => [
    (window as unknown as Marks).__clickedAt,
    (window as unknown as Marks).__sentAt,
  ]);
  const fetches = await fetchTimings(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.waitForURL(`${server.url}/transfer/history`);
  // The history refetches its list on every processing event: the page leaves it before the next measure.
  await page.goto('about:blank');
  const list = (await call(server.url, '/api/transfers', { token })).body as { items: TransferDetail[] };
  const id = list.items.find((t) => t.name === name)!.id;
  // The checksum and the probe read the whole file: the next measure starts once they are done.
  const transfer = await waitFor(
    async () => {
      const detail = (await call(server.url, `/api/transfers/${id}`, { token })).body as TransferDetail;
      return detail.files.every((f) => f.sha256 && f.status !== 'processing') ? detail : null;
    },
    { what: 'the checksum of the sent file', timeoutMs: 1_800_000, intervalMs: 250 },
  );
  return { totalMs: end - start, beforeMs: fetches.first - start, afterMs: end - fetches.last, fetches, transfer };
}

/** A grant to a link-only transfer without password, as the recipient page asks for it. */
async function recipientGrant(server: TestServer, transfer: TransferDetail): Promise<{ token: string; grant: string }> {
  const token = new URL(transfer.link).searchParams.get('transferId')!;
  const access = await call(server.url, `/api/public/transfers/${token}/access`, { method: 'POST', body: {} });
  return { token, grant: (access.body as { grant: string }).grant };
}

/** Reads a URL to the end with curl in its own process, asynchronously (the server is in this one). */
async function curlDownload(url: string): Promise<{ bytes: number; ms: number }> {
  const format = '%{size_download} %{time_total}';
  const { stdout } = await execFileAsync('curl', ['-sS', '--fail', '-o', '/dev/null', '-w', format, url]);
  const [bytes, seconds] = stdout.trim().split(' ').map(Number);
  return { bytes: bytes!, ms: seconds! * 1000 };
}

/** Reads files to the end through fs streams in this process, in the 1 MiB reads the disk blob store uses. */
async function readFiles(paths: string[]): Promise<{ bytes: number; ms: number }> {
  const start = performance.now();
  let bytes = 0;
  for (const path of paths)
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>)
      bytes += chunk.length;
  return { bytes, ms: performance.now() - start };
}

/** The disk driver's files of a transfer's originals (projects/{file}/{version}/original.{extension}). */
const blobFilesOf = (server: TestServer, transfer: TransferDetail) =>
  transfer.files.map((f) =>
    join(server.dataDir, 'blobs/objects/projects', f.id, f.versionId, `original.${f.extension}`),
  );

const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
const s = (ms: number) => (ms / 1000).toFixed(1);
const header = (...cells: string[]) => [row(cells), row(cells.map(() => '---'))];
/** A table row: seconds, MB/s and the throughput as a share of the baseline's. */
type Timed = { bytes: number; ms: number };
const rateRow = (label: string, { bytes, ms }: Timed, base: Timed, bold = false, ...more: string[]) => {
  const ratio = (mbps(bytes, ms) / mbps(base.bytes, base.ms)).toFixed(2);
  return row([label, s(ms), mbps(bytes, ms).toFixed(0), bold ? `**${ratio}**` : ratio, ...more]);
};
/** Parts sent, and the mean time of one part's PUT. */
const partsCell = (t: { count: number; partMs: number }) => `${t.count} × ${t.partMs.toFixed(0)} ms`;
const medianOf = (runs: Timed[]): Timed => ({ bytes: runs[0]!.bytes, ms: median(runs.map((r) => r.ms)) });

type Bench = { server: TestServer; browser: Browser; token: string; dir: string; loads: string[] };

/** (a) Rounds of: the sink draining, the sink writing to disk, Mixroom; then the sink draining one request. */
async function uploadsTable(bench: Bench, file: string, bytes: number) {
  const { server, browser, token, loads } = bench;
  const target = join(bench.dir, 'sink.bin');
  const sink = await startSink(target);
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signInAt(page, server.url, '/transfer', { email: ACCOUNT.email, password: ACCOUNT.password });
    const sinkPage = await context.newPage();
    await sinkPage.goto(sink.url);
    await sinkPage.locator('#file').setInputFiles(file);
    await fetchTimings(sinkPage);
    const partSize = choosePartSize(bytes);
    // Each measure starts with no dirty pages left by the previous one (their flushing would slow it).
    const toSink = async (inFlight: number, to: 'drain' | 'disk') => {
      writeFileSync(target, '');
      execFileSync('sync');
      const before = sink.received();
      const ms = await sinkPage.evaluate(
        ([size, parallel, path]) =>
          (window as unknown as { send(...args: unknown[]): Promise<number> }).send(size, parallel, path),
        [partSize, inFlight, `/${to}`] as const,
      );
      if (sink.received() - before !== bytes) throw new Error('the sink did not receive the whole file');
      return { bytes, ms, fetches: await fetchTimings(sinkPage) };
    };
    const rounds = [];
    for (let round = 1; round <= UPLOAD_ROUNDS; round++) {
      const drain = await toSink(PARTS_IN_FLIGHT, 'drain');
      const disk = await toSink(PARTS_IN_FLIGHT, 'disk');
      execFileSync('sync');
      const upload = await sendFromTransferPage(page, server, token, file, `Bench session ${round}`);
      rounds.push({ drain, disk, upload });
      step(`round ${round}: sink ${s(drain.ms)} s, sink to disk ${s(disk.ms)} s, Mixroom ${s(upload.totalMs)} s`);
    }
    const stream = await toSink(0, 'drain');
    rmSync(target);
    loads.push(`after the uploads ${load()}`);
    await context.close();
    const mib = (size: number) => (size / 2 ** 20).toFixed(0);
    const lines = [
      `(a) upload from Chromium, ${mib(partSize)} MiB parts, ${PARTS_IN_FLIGHT} in flight`,
      '',
      ...header('round: path', 'seconds', 'MB/s', 'vs the sink draining parts (same round)', 'parts × mean PUT'),
      ...rounds.flatMap(({ drain, disk, upload: u }, i) => [
        rateRow(`${i + 1}: bare Node sink, draining the parts`, drain, drain, false, partsCell(drain.fetches)),
        rateRow(`${i + 1}: bare Node sink, writing at offsets`, disk, drain, false, partsCell(disk.fetches)),
        rateRow(`${i + 1}: Mixroom, click → 'sent'`, { bytes, ms: u.totalMs }, drain, true, partsCell(u.fetches)),
      ]),
      rateRow('bare Node sink, one request (vs the median)', stream, medianOf(rounds.map((r) => r.drain))),
      '',
      `Mixroom outside the parts: click → first part ${rounds.map((r) => `${r.upload.beforeMs.toFixed(0)} ms`).join(', ')}; last part → 'sent' ${rounds.map((r) => `${r.upload.afterMs.toFixed(0)} ms`).join(', ')}; each part's two upload API calls (its URL, then its record) take ${rounds.map((r) => `${r.upload.fetches.callMs.toFixed(0)} ms`).join(', ')} on average.`,
    ];
    return { lines, sent: rounds.at(-1)!.upload.transfer };
  } finally {
    sink.server.close();
  }
}

/** (b) The transfer as the recipient's ZIP, and its one file alone, against reading its blob file; alternated. */
async function downloadsTable(bench: Bench, sent: TransferDetail, bytes: number): Promise<string[]> {
  const { server, loads } = bench;
  const { token: link, grant } = await recipientGrant(server, sent);
  const g = encodeURIComponent(grant);
  const zipUrl = `${server.url}/api/public/transfers/${link}/zip?g=${g}`;
  const fileUrl = `${server.url}/api/public/transfers/${link}/files/${sent.files[0]!.id}/download?g=${g}`;
  const blobs = blobFilesOf(server, sent);
  const [disk, single, zip]: [Timed[], Timed[], Timed[]] = [[], [], []];
  for (let run = 0; run < ZIP_RUNS; run++) {
    disk.push(await readFiles(blobs));
    single.push(await curlDownload(fileUrl));
    zip.push(await curlDownload(zipUrl));
  }
  loads.push(`after the downloads ${load()}`);
  step(`ZIP ${zip.map((r) => s(r.ms)).join(', ')} s; file ${single.map((r) => s(r.ms)).join(', ')} s`);
  if ([...disk, ...single, ...zip].some((r) => r.bytes < bytes)) throw new Error('a download ended short');
  const base = medianOf(disk);
  return [
    `(b) download, median of ${ZIP_RUNS} (alternated)`,
    '',
    ...header('read', 'seconds', 'MB/s', 'vs disk'),
    rateRow('blob file from disk (fs stream, in the server process)', base, base),
    rateRow("the same file alone over HTTP (curl; the page's single-file download)", medianOf(single), base),
    rateRow(`"Download all" ZIP over HTTP (curl, ${(zip[0]!.bytes / 1e9).toFixed(2)} GB)`, medianOf(zip), base, true),
  ];
}

/** (c) A 60-minute file sent from Node; the recipient page opened signed out. */
async function waveformTable(bench: Bench): Promise<string[]> {
  const { server, browser, token, dir, loads } = bench;
  // As the review benchmark's hour: pink noise that swells and fades, 48 kHz stereo 24-bit.
  const swell = ['-af', "volume='0.15+0.85*abs(sin(t/9))':eval=frame", '-c:a', 'pcm_s24le'];
  const wav = generateAudio(join(dir, 'Hour Master.wav'), 'anoisesrc=d=3600:c=pink:r=48000:a=0.5', swell);
  const size = statSync(wav).size;
  const form = transferForm({ name: 'Hour', files: [{ path: '', fileName: 'Hour Master.wav', size }] });
  const created = await sendTransfer(server.url, token, form, [wav]);
  const hour = await waitFor(
    async () => {
      const detail = (await call(server.url, `/api/transfers/${created.id}`, { token })).body as TransferDetail;
      return detail.files.every((f) => f.hasPeaks && f.sha256 && f.status === 'ready') ? detail : null;
    },
    { what: 'the waveform of the hour', timeoutMs: 1_800_000, intervalMs: 250 },
  );
  step('the hour is processed');
  const { token: link, grant } = await recipientGrant(server, hour);
  const content = (await call(server.url, `/api/public/transfers/${link}/content?g=${encodeURIComponent(grant)}`))
    .body as PublicTransferContent;
  const peaks = (await (await fetch(new URL(content.files[0]!.peaksUrl!, server.url))).arrayBuffer()).byteLength;
  // Signed out. A script in each document clicks the file's tile the moment it appears (no round trip
  // to the benchmark); the player marks `mixroom:waveform-drawn` once it has drawn the server's peaks.
  const recipient = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await recipient.addInitScript((selector) => {
    new MutationObserver((_records, observer) => {
      const tile = document.querySelector<HTMLElement>(selector);
      if (!tile) return;
      observer.disconnect();
      (window as unknown as { __tileClickedAt: number }).__tileClickedAt = performance.now();
      tile.click();
    }).observe(document, { subtree: true, childList: true });
  }, '[data-testid="transfer-item"][data-name="Hour Master.wav"]');
  const page = await recipient.newPage();
  const opens = [];
  for (let run = 0; run < WAVEFORM_RUNS; run++) {
    await page.goto(`${server.url}/public/share?transferId=${link}`);
    await page.waitForFunction(() => performance.getEntriesByName('mixroom:waveform-drawn').length > 0);
    opens.push(
      await page.evaluate(() => ({
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        clicked: (window as unknown as { __tileClickedAt: number }).__tileClickedAt,
        drawn: performance.getEntriesByName('mixroom:waveform-drawn')[0]!.startTime,
      })),
    );
  }
  loads.push(`end ${load()}`);
  const drawn = median(opens.map((o) => o.drawn));
  const fcp = median(opens.map((o) => o.fcp));
  return [
    `(c) recipient page, ${(size / 1e9).toFixed(2)} GB 60-minute WAV (peaks ${(peaks / 1e3).toFixed(0)} kB), median of ${WAVEFORM_RUNS}`,
    '',
    ...header('measure', 'figure', 'goal', 'baseline (same run)', 'ratio'),
    row([
      'navigation → waveform drawn',
      `${drawn.toFixed(0)} ms (tile clicked at ${median(opens.map((o) => o.clicked)).toFixed(0)} ms; runs ${opens.map((o) => o.drawn.toFixed(0)).join(', ')})`,
      '< 1 s',
      `first contentful paint ${fcp.toFixed(0)} ms`,
      (drawn / fcp).toFixed(2),
    ]),
  ];
}

export async function benchTransfers(): Promise<string> {
  const bytes = Math.round(Number(process.env.BENCH_TRANSFER_GB ?? 2) * 1e9);
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-bench-transfers-'));
  const loads = [`start ${load()}`];
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  try {
    const file = join(dir, 'Session.bin');
    writeRandomFile(file, bytes);
    // Dirty pages left by the writing would throttle the first measure: flushed first.
    execFileSync('sync');
    step(`${(bytes / 1e9).toFixed(2)} GB written; load ${load()}`);
    server = await startTestServer();
    browser = await launchBrowser();
    const token = (await signInThroughOidc(server.url, ACCOUNT)).access_token;
    const bench: Bench = { server, browser, token, dir, loads };
    const uploads = await uploadsTable(bench, file, bytes);
    const downloads = await downloadsTable(bench, uploads.sent, bytes);
    rmSync(file);
    const waveform = await waveformTable(bench);
    const title = `### Transfers (${(bytes / 1e9).toFixed(2)} GB of random bytes, one file; disk driver)`;
    return [
      title,
      '',
      ...uploads.lines,
      '',
      ...downloads,
      '',
      ...waveform,
      '',
      `Load average: ${loads.join(', ')}.`,
    ].join('\n');
  } finally {
    await browser?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { Capture } from './capture.ts';
import { describeSource, type Platform, type Source } from './ffmpeg.ts';
import { DEFAULT_ORIGINS, hostAllowed, originAllowed, type OriginPattern } from './origin.ts';
import {
  BRIDGE_VERSION,
  BYTES_PER_SAMPLE,
  CHANNELS,
  DEFAULT_FRAME_SAMPLES,
  DEFAULT_PORTS,
  DEFAULT_SAMPLE_RATE,
  parseSampleRateMessage,
  type BridgeError,
  type BridgeParameters,
  type PortName,
  type Ports,
  type SampleFormat,
} from './protocol.ts';

export interface BridgeOptions {
  ffmpeg: string;
  source: Source;
  format?: SampleFormat;
  frameSamples?: number;
  /** 0 picks a free port (tests); the ports actually bound are on the returned bridge. */
  ports?: Partial<Ports>;
  origins?: readonly OriginPattern[];
  /** How long ffmpeg keeps running after the last page left, so a reload does not restart it. */
  graceMs?: number;
  restartDelayMs?: number;
  /** Serves wss:// instead of ws:// (for browsers that refuse ws:// from an https page). */
  tls?: { cert: Buffer | string; key: Buffer | string };
  log?: (line: string) => void;
  platform?: Platform;
}

export interface Bridge {
  readonly ports: Ports;
  parameters(): BridgeParameters;
  /** The running ffmpeg's process id, if one runs. */
  capturePid(): number | undefined;
  close(): Promise<void>;
}

/** Loopback only: the audio is for pages in this machine's browser, never for the network. */
const HOST = '127.0.0.1';
const DEFAULT_GRACE_MS = 10_000;
/** A page that falls this far behind (a stalled tab) skips frames instead of growing our memory. */
const MAX_BUFFERED_SECONDS = 1;

const LABELS: Record<PortName, string> = {
  pluginControl: 'plugin messages',
  pluginAudio: 'plugin audio',
  systemControl: 'system-wide messages',
  systemAudio: 'system-wide audio',
};

function listen(server: Server, port: number, label: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} (${label}) is in use: is another bridge already running?`)
          : error,
      );
    };
    server.once('error', onError);
    server.listen(port, HOST, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

class LocalBridge implements Bridge {
  ports: Ports = { ...DEFAULT_PORTS };
  private readonly servers: Server[] = [];
  private readonly sockets: WebSocketServer;
  private readonly controlClients = new Set<WebSocket>();
  private readonly audioClients = new Set<WebSocket>();
  private readonly lagging = new WeakSet<WebSocket>();
  private sampleRate = DEFAULT_SAMPLE_RATE;
  private capture: Capture | null = null;
  /** Start, stop and rate changes run one after another: stopping ffmpeg takes a moment. */
  private transition: Promise<void> = Promise.resolve();
  private graceTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly format: SampleFormat;
  private readonly frameSamples: number;
  private readonly origins: readonly OriginPattern[];
  private readonly log: (line: string) => void;
  private readonly options: BridgeOptions;

  constructor(options: BridgeOptions) {
    this.options = options;
    this.format = options.format ?? 'f32le';
    this.frameSamples = options.frameSamples ?? DEFAULT_FRAME_SAMPLES;
    this.origins = options.origins ?? DEFAULT_ORIGINS;
    this.log = options.log ?? (() => undefined);
    // ws's own per-message compression would spend CPU on noise-like PCM for nothing.
    this.sockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  }

  async listen(): Promise<void> {
    for (const name of Object.keys(DEFAULT_PORTS) as PortName[]) {
      const server = this.options.tls ? createHttpsServer(this.options.tls) : createHttpServer();
      server.on('request', (_req, res) => {
        res.writeHead(426, { 'content-type': 'text/plain' }).end('Mixroom bridge: WebSocket only\n');
      });
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
        this.upgrade(name, req, socket, head),
      );
      this.servers.push(server);
      this.ports[name] = await listen(server, this.options.ports?.[name] ?? DEFAULT_PORTS[name], LABELS[name]);
    }
  }

  parameters(): BridgeParameters {
    return {
      type: 'parameters',
      sampleRate: this.sampleRate,
      channels: CHANNELS,
      frameSamples: this.frameSamples,
      format: this.format,
      source: describeSource(this.options.source, this.options.platform),
      version: BRIDGE_VERSION,
    };
  }

  capturePid(): number | undefined {
    return this.capture?.pid;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.graceTimer) clearTimeout(this.graceTimer);
    for (const client of [...this.controlClients, ...this.audioClients]) client.terminate();
    await this.schedule(() => this.stopCapture());
    this.sockets.close();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  private upgrade(name: PortName, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const origin = req.headers.origin;
    if (this.closed) return refuse(socket, '503 Service Unavailable');
    if (!hostAllowed(req.headers.host)) {
      this.log(`${LABELS[name]}: refused a connection for host ${req.headers.host ?? '(none)'}`);
      return refuse(socket, '403 Forbidden');
    }
    if (!originAllowed(origin, this.origins)) {
      this.log(`${LABELS[name]}: refused a page from ${origin ?? '(no origin)'} (not in the allowed origins)`);
      return refuse(socket, '403 Forbidden');
    }
    this.sockets.handleUpgrade(req, socket, head, (ws) => {
      const from = origin ?? 'a local program';
      if (name === 'pluginAudio' || name === 'systemAudio') this.addAudioClient(ws, name, from);
      else this.addControlClient(ws, name, from);
    });
  }

  private addControlClient(ws: WebSocket, name: PortName, from: string): void {
    this.controlClients.add(ws);
    this.log(`${LABELS[name]}: page connected (${from})`);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const rate = parseSampleRateMessage(isBinary ? '' : rawText(data));
      if (typeof rate === 'string') {
        const error: BridgeError = { type: 'error', message: rate };
        ws.send(JSON.stringify(error));
        return;
      }
      if (rate === this.sampleRate) {
        ws.send(JSON.stringify(this.parameters()));
        return;
      }
      this.log(`${LABELS[name]}: page asks for ${rate} Hz`);
      this.sampleRate = rate;
      // Every page learns the new parameters; frames at the new rate follow once ffmpeg restarted.
      const message = JSON.stringify(this.parameters());
      for (const client of this.controlClients) if (client.readyState === WebSocket.OPEN) client.send(message);
      void this.schedule(async () => {
        if (!this.capture) return;
        await this.stopCapture();
        this.startCapture();
      });
    });
    ws.on('close', () => {
      this.controlClients.delete(ws);
      this.log(`${LABELS[name]}: page left`);
    });
    ws.on('error', () => ws.terminate());
  }

  private addAudioClient(ws: WebSocket, name: PortName, from: string): void {
    this.audioClients.add(ws);
    this.log(`${LABELS[name]}: page connected (${from}), ${this.audioClients.size} listening`);
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
    void this.schedule(async () => {
      if (!this.capture && this.audioClients.size > 0 && !this.closed) this.startCapture();
    });
    ws.on('close', () => {
      this.audioClients.delete(ws);
      this.log(`${LABELS[name]}: page left, ${this.audioClients.size} listening`);
      if (this.audioClients.size > 0 || this.closed) return;
      if (this.graceTimer) clearTimeout(this.graceTimer);
      this.graceTimer = setTimeout(() => {
        this.graceTimer = null;
        void this.schedule(async () => {
          if (this.audioClients.size === 0) await this.stopCapture();
        });
      }, this.options.graceMs ?? DEFAULT_GRACE_MS);
    });
    ws.on('error', () => ws.terminate());
  }

  private schedule(step: () => Promise<void>): Promise<void> {
    this.transition = this.transition.then(step).catch((error: unknown) => {
      this.log(`error: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.transition;
  }

  private startCapture(): void {
    const capture = new Capture({
      ffmpeg: this.options.ffmpeg,
      source: this.options.source,
      sampleRate: this.sampleRate,
      format: this.format,
      frameSamples: this.frameSamples,
      restartDelayMs: this.options.restartDelayMs,
      platform: this.options.platform,
      log: this.log,
      onFrame: (frame) => this.broadcast(frame),
      onEnd: () => {
        // Nothing left to play: the next page to connect after everyone left starts the file over.
        if (this.capture === capture) this.capture = null;
      },
    });
    this.capture = capture;
    capture.start();
  }

  private async stopCapture(): Promise<void> {
    const capture = this.capture;
    this.capture = null;
    await capture?.stop();
  }

  private broadcast(frame: Buffer): void {
    const limit = MAX_BUFFERED_SECONDS * this.sampleRate * CHANNELS * BYTES_PER_SAMPLE[this.format];
    for (const client of this.audioClients) {
      if (client.readyState !== WebSocket.OPEN) continue;
      if (client.bufferedAmount > limit) {
        // The page sees the skipped sequence numbers and knows it lost audio.
        if (!this.lagging.has(client)) this.log('a page is not keeping up: skipping frames for it');
        this.lagging.add(client);
        continue;
      }
      this.lagging.delete(client);
      client.send(frame, { binary: true });
    }
  }
}

/** Opens the four local sockets; the capture starts when a page opens an audio socket. */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const bridge = new LocalBridge(options);
  try {
    await bridge.listen();
  } catch (error) {
    await bridge.close();
    throw error;
  }
  return bridge;
}

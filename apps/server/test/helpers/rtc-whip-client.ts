import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian 12's simple-whip-client (/usr/bin/whip-client, GStreamer) as a real WHIP publisher.
 *
 * As packaged it aborts at start: it links libsoup 2, while GStreamer's webrtcbin pulls libnice →
 * libgupnp-igd → libgupnp → libsoup 3, and libsoup 3 refuses to load next to libsoup 2
 * ("libsoup2 symbols detected"). libnice needs gupnp-igd only for UPnP port mapping, and skips it
 * when `gupnp_simple_igd_thread_new` returns NULL; a four-function stand-in library on
 * LD_LIBRARY_PATH keeps libsoup 3 out of the process. It is compiled here with the system's gcc.
 */
const GUPNP_IGD_STUB = `
void *gupnp_simple_igd_thread_new(void) { return 0; }
unsigned long gupnp_simple_igd_get_type(void) { return 0; }
void gupnp_simple_igd_add_port(void) {}
void gupnp_simple_igd_remove_port_local(void) {}
`;

export const WHIP_CLIENT = '/usr/bin/whip-client';

export interface WhipClient {
  child: ChildProcess;
  output: () => string;
  /** Ends the client as Ctrl-C would (it DELETEs its resource) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Builds the stand-in library once; returns the folder to put on LD_LIBRARY_PATH and its cleanup. */
export function buildWhipClientLibraries(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mixroom-whip-'));
  writeFileSync(join(dir, 'gupnp-igd-stub.c'), GUPNP_IGD_STUB);
  execFileSync('gcc', [
    '-shared',
    '-fPIC',
    '-Wl,-soname,libgupnp-igd-1.0.so.4',
    '-o',
    join(dir, 'libgupnp-igd-1.0.so.4'),
    join(dir, 'gupnp-igd-stub.c'),
  ]);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function startWhipClient(options: { url: string; token: string; libraries: string; hz: number }): WhipClient {
  const pipeline =
    `audiotestsrc is-live=true wave=sine freq=${options.hz} volume=0.3 ! audioconvert ! audioresample ! ` +
    'opusenc ! rtpopuspay pt=100 ! application/x-rtp,media=audio,encoding-name=OPUS,payload=100';
  const child = spawn(WHIP_CLIENT, ['-u', options.url, '-t', options.token, '-o', '-A', pipeline], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LD_LIBRARY_PATH: options.libraries },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGINT') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { BridgeOptions } from './bridge.ts';
import type { Source } from './ffmpeg.ts';
import { DEFAULT_ORIGINS, validateOriginPattern } from './origin.ts';
import { DEFAULT_FRAME_SAMPLES, DEFAULT_PORTS, SAMPLE_FORMATS, type Ports, type SampleFormat } from './protocol.ts';

export const USAGE = `Mixroom bridge: streams audio from this machine to a Mixroom live room open in your browser.

Usage:
  npx @mixroom/bridge [--source system]               what this machine plays (default)
  npx @mixroom/bridge --source input --device NAME    an audio interface input
  npx @mixroom/bridge --source file PATH [--loop]     a file, in real time
  npx @mixroom/bridge --list-devices                  the devices --device can name

Options:
  --device NAME         capture device (system: a loopback device; input: the interface)
  --origin ORIGIN       a page allowed to connect, e.g. https://mixroom.example (repeatable;
                        replaces the default: any https page and http://localhost:*)
  --format FORMAT       f32le (default), s16le or s24le
  --frame-samples N     samples per channel in each frame (default ${DEFAULT_FRAME_SAMPLES}, 10 ms at 48 kHz)
  --ports A,B,C,D       plugin messages, plugin audio, system-wide messages, system-wide audio
                        (default ${Object.values(DEFAULT_PORTS).join(',')})
  --grace SECONDS       keep capturing this long after the last page left (default 10)
  --tls-cert FILE, --tls-key FILE
                        serve wss:// with this certificate (e.g. from mkcert) instead of ws://
  --version, --help
`;

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'list-devices' }
  | { kind: 'run'; options: Omit<BridgeOptions, 'ffmpeg' | 'log'> };

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} ${text}: expected a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Reads the command line; throws an Error whose message is meant for the user. */
export function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      source: { type: 'string' },
      device: { type: 'string' },
      loop: { type: 'boolean' },
      'list-devices': { type: 'boolean' },
      origin: { type: 'string', multiple: true },
      format: { type: 'string' },
      'frame-samples': { type: 'string' },
      ports: { type: 'string' },
      grace: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      version: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (values['list-devices']) return { kind: 'list-devices' };

  const kind = values.source ?? 'system';
  let source: Source;
  if (kind === 'file') {
    const path = positionals.shift();
    if (!path) throw new Error('--source file needs the file: --source file PATH');
    source = { kind: 'file', path: resolve(path), loop: values.loop ?? false };
  } else if (kind === 'input') {
    if (!values.device) throw new Error('--source input needs --device NAME (see --list-devices)');
    source = { kind: 'input', device: values.device };
  } else if (kind === 'system') {
    source = { kind: 'system', device: values.device };
  } else {
    throw new Error(`--source ${kind}: expected system, input or file`);
  }
  if (positionals.length > 0) throw new Error(`unexpected argument: ${positionals[0]}`);
  if (values.loop && source.kind !== 'file') throw new Error('--loop applies to --source file only');

  const format = values.format ?? 'f32le';
  if (!(SAMPLE_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`--format ${format}: expected ${SAMPLE_FORMATS.join(', ')}`);
  }
  let ports: Ports | undefined;
  if (values.ports) {
    const list = values.ports.split(',').map((p) => wholeNumber('ports', p.trim(), 1, 65_535));
    if (list.length !== 4 || new Set(list).size !== 4) throw new Error('--ports needs four different ports');
    const [pluginControl, pluginAudio, systemControl, systemAudio] = list as [number, number, number, number];
    ports = { pluginControl, pluginAudio, systemControl, systemAudio };
  }
  if (Boolean(values['tls-cert']) !== Boolean(values['tls-key'])) {
    throw new Error('--tls-cert and --tls-key go together');
  }
  return {
    kind: 'run',
    options: {
      source,
      format: format as SampleFormat,
      frameSamples: values['frame-samples']
        ? wholeNumber('frame-samples', values['frame-samples'], 16, 8192)
        : undefined,
      ports,
      origins: values.origin ? values.origin.map(validateOriginPattern) : DEFAULT_ORIGINS,
      graceMs: values.grace ? wholeNumber('grace', values.grace, 0, 3600) * 1000 : undefined,
      tls:
        values['tls-cert'] && values['tls-key']
          ? { cert: readFileSync(values['tls-cert']), key: readFileSync(values['tls-key']) }
          : undefined,
    },
  };
}

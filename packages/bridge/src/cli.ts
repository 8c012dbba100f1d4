#!/usr/bin/env node
// The program a user runs next to their DAW: `npx @mixroom/bridge` or `npm run bridge`.
import { existsSync } from 'node:fs';
import { parseCommand, USAGE } from './args.ts';
import { startBridge, type Bridge } from './bridge.ts';
import { currentPlatform, listDevices, locateFfmpeg, MAC_LOOPBACK_DEVICE } from './ffmpeg.ts';
import { BRIDGE_VERSION } from './protocol.ts';

const time = () => new Date().toTimeString().slice(0, 8);
const log = (line: string) => process.stdout.write(`${time()} ${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`mixroom-bridge: ${message}\n`);
  process.exit(2);
};

const NO_FFMPEG =
  'ffmpeg was not found: install it (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg; ' +
  'Windows: winget install ffmpeg) or set FFMPEG_PATH to its full path';

async function main(): Promise<void> {
  let command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  if (command.kind === 'help') return void process.stdout.write(USAGE);
  if (command.kind === 'version') return void process.stdout.write(`${BRIDGE_VERSION}\n`);

  const ffmpeg = locateFfmpeg() ?? fail(NO_FFMPEG);
  if (command.kind === 'list-devices') {
    await listDevices(ffmpeg, (text) => process.stdout.write(text));
    return;
  }
  const { options } = command;
  if (options.source.kind === 'file' && !existsSync(options.source.path)) {
    return fail(`no such file: ${options.source.path}`);
  }
  if (options.source.kind === 'system' && currentPlatform() === 'darwin' && !options.source.device) {
    log(`macOS cannot record what it plays by itself: install ${MAC_LOOPBACK_DEVICE} (or another loopback`);
    log('device, then pass --device NAME) and send your DAW or system output to it.');
  }

  let bridge: Bridge;
  try {
    bridge = await startBridge({ ...options, ffmpeg, log });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const { ports } = bridge;
  const scheme = options.tls ? 'wss' : 'ws';
  log(`Mixroom bridge ${BRIDGE_VERSION}: streaming ${bridge.parameters().source}`);
  log(
    `plugin:      ${scheme}://localhost:${ports.pluginControl} (messages), ${scheme}://localhost:${ports.pluginAudio} (audio)`,
  );
  log(
    `system wide: ${scheme}://localhost:${ports.systemControl} (messages), ${scheme}://localhost:${ports.systemAudio} (audio)`,
  );
  log(`pages allowed: ${(options.origins ?? []).join(', ')}`);
  log('open your live room in the browser and pick Plugin or System Wide; Ctrl-C ends the bridge');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl-C: the user wants out now. ffmpeg ends by itself once its pipe is gone.
      process.exit(130);
    }
    stopping = true;
    log(`${signal}: stopping`);
    bridge.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

await main();

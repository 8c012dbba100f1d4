#!/usr/bin/env node
// The system programs the tests drive: Debian's Chromium for the end-to-end journeys (never a
// browser downloaded by a test tool), ffmpeg to make test audio and run the media job, pdftotext to
// read back notes exported as PDF. Missing ones are installed with apt-get when running as root on
// Debian or Ubuntu, as CI does; otherwise this stops at once with the exact command to run, instead of
// letting dozens of tests fail one by one. Runs on any Node ≥ 20 (CI calls it before installing).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { findOnPath } from './lib/runtime.mjs';

const tools = [
  {
    name: 'Chromium',
    packages: ['chromium', 'fonts-noto-color-emoji'],
    why: 'the end-to-end journeys',
    present: (env) => existsSync(env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  },
  {
    name: 'ffmpeg',
    packages: ['ffmpeg'],
    why: 'test audio and the media job',
    present: (env) => Boolean(findOnPath('ffmpeg', env.PATH)),
  },
  {
    name: 'pdftotext',
    packages: ['poppler-utils'],
    why: 'reading exported PDF notes',
    present: (env) => Boolean(findOnPath('pdftotext', env.PATH)),
  },
  {
    name: 'whip-client',
    packages: ['simple-whip-client'],
    why: 'a WHIP publisher Mixroom did not write, for the live rooms',
    present: (env) => Boolean(findOnPath('whip-client', env.PATH)),
  },
  {
    name: 'espeak-ng',
    packages: ['espeak-ng'],
    why: 'a voice for the separation benchmark and tests',
    present: (env) => Boolean(findOnPath('espeak-ng', env.PATH)),
  },
];

export const missingTools = (env = process.env) => tools.filter((tool) => !tool.present(env));

function aptInstall(packages, log) {
  log(`installing ${packages.join(', ')} with apt-get (a minute or two, once)…`);
  const started = Date.now();
  const options = {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  };
  // Another apt-get may be running (another checkout, unattended upgrades): wait for its lock.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', [...lock, ...args], options);
    if (result.status === 0) continue;
    // Its chatter (debconf notes) is shown only when it failed.
    process.stderr.write(result.stderr ?? '');
    log(`apt-get ${args[0]} failed`);
    return false;
  }
  log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** True when every tool is there (installing them where possible); else prints what to run. */
export function ensureTestTools(log = (text) => console.log(`[test] ${text}`), env = process.env) {
  if (env.CHROMIUM_PATH && !existsSync(env.CHROMIUM_PATH)) {
    log(
      `CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which does not exist: point it at a Chromium executable, or unset it to use /usr/bin/chromium`,
    );
    return false;
  }
  const missing = missingTools(env);
  if (missing.length === 0) return true;
  const packages = missing.flatMap((tool) => tool.packages);
  log(`missing: ${missing.map((tool) => `${tool.name} (${tool.why})`).join(', ')}`);
  if (process.getuid?.() === 0 && findOnPath('apt-get', env.PATH) && aptInstall(packages, log)) {
    const still = missingTools(env);
    if (still.length === 0) return true;
    log(`still missing after apt-get: ${still.map((tool) => tool.name).join(', ')}`);
  }
  log('install them, then run the tests again:');
  console.log(`\n    sudo apt-get install -y ${packages.join(' ')}\n`);
  return false;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exit(ensureTestTools() ? 0 : 1);

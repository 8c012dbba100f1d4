// Mixroom processes audio with ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH when set, else the
// system's (Debian's ffmpeg 5+). Only on a machine with neither, the start fetches the static builds
// published on npm (a 2018 ffmpeg, 142 MB) into node_modules/.cache/mixroom-media, where the server
// looks last; nothing is fetched where the system has ffmpeg.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { step } from './progress.mjs';

const fallbackPackages = { '@ffmpeg-installer/ffmpeg': '1.1.0', '@ffprobe-installer/ffprobe': '2.1.2' };

export const mediaFallbackDir = (root) => join(root, 'node_modules', '.cache', 'mixroom-media');

const works = (binary) => spawnSync(binary, ['-version'], { stdio: 'ignore' }).status === 0;

function fallbackInstalled(root) {
  return Object.keys(fallbackPackages).every((name) =>
    existsSync(join(mediaFallbackDir(root), 'node_modules', name, 'package.json')),
  );
}

/** True when ffmpeg and ffprobe can be found by the server, fetching the npm builds if needed. */
export async function ensureMediaTools(root, env, npm) {
  const ffmpeg = env.FFMPEG_PATH || works('ffmpeg');
  const ffprobe = env.FFPROBE_PATH || works('ffprobe');
  if ((ffmpeg && ffprobe) || fallbackInstalled(root)) return true;
  const dir = mediaFallbackDir(root);
  mkdirSync(dir, { recursive: true });
  // Their install scripts only mark the binary executable; npm 11 runs them only when allowed.
  const platform = `${process.platform}-${process.arch}`;
  const allowScripts = { [`@ffmpeg-installer/${platform}`]: true, [`@ffprobe-installer/${platform}`]: true };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, dependencies: fallbackPackages, allowScripts }, null, 2),
  );
  const why =
    'this machine has no ffmpeg, which analyses uploads; `apt-get install ffmpeg` gives a current one, used instead';
  const install = () => npm(['install', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  const status = await step('fetching the npm build of ffmpeg and ffprobe (142 MB, from 2018)', install, why);
  return status === 0 && fallbackInstalled(root);
}

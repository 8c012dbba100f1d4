// `npm run dev`: the API with reload (tsx watch) on :8080 and the Vite dev server on :5173, which
// proxies /api and /oidc to it. Open http://localhost:5173.
import { spawn } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const devOrigin = 'http://localhost:5173';
const children = [
  spawn(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'watch', join(root, 'apps', 'server', 'src', 'main.ts')],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PUBLIC_URL: devOrigin, MIXROOM_DEV_ORIGIN: devOrigin },
    },
  ),
  spawn(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js')], {
    cwd: join(root, 'apps', 'web'),
    stdio: 'inherit',
  }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);

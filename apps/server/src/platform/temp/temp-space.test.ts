import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TempSpace } from './temp-space';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const host = hostname().replace(/[^A-Za-z0-9.]/g, '_');
/** Above Linux's highest pid (2^22): no process has it. */
const DEAD_PID = 4_194_305;

describe('the temp space', () => {
  it("removes what dead processes of this host left, names it, and keeps live and other hosts' folders", async () => {
    const root = mkdtempSync(join(tmpdir(), 'mixroom-temp-space-'));
    roots.push(root);
    const dead = join(root, `${host}-${DEAD_PID}-0badc0de`);
    mkdirSync(join(dead, 'media-0c6f3a52-9f0e-4a8e-9d7e-2f4b1c1b8a11-AbC123'), { recursive: true });
    writeFileSync(join(dead, 'media-0c6f3a52-9f0e-4a8e-9d7e-2f4b1c1b8a11-AbC123', 'lossy.m4a'), 'half');
    const live = `${host}-${process.ppid}-0000beef`;
    const elsewhere = `other-node-${DEAD_PID}-0000cafe`;
    mkdirSync(join(root, live));
    mkdirSync(join(root, elsewhere));

    const space = TempSpace.open(root);
    expect(space.leftovers).toEqual(['media-0c6f3a52-9f0e-4a8e-9d7e-2f4b1c1b8a11-AbC123']);
    expect(readdirSync(root).sort()).toEqual([elsewhere, live, space.dir.slice(root.length + 1)].sort());

    const work = await space.folder('media-x');
    expect(work.startsWith(join(space.dir, 'media-x-'))).toBe(true);
    await space.remove(work);
    space.close();
    expect(readdirSync(root).sort()).toEqual([elsewhere, live].sort());
  });

  it('keeps work a stop cut short for the next start, which finds it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mixroom-temp-space-'));
    roots.push(root);
    const first = TempSpace.open(root);
    await first.folder('media-1b2c3d4e-0000-4000-8000-000000000001');
    first.close();
    const second = TempSpace.open(root);
    expect(second.leftovers).toHaveLength(1);
    expect(second.leftovers[0]).toMatch(/^media-1b2c3d4e-0000-4000-8000-000000000001-/);
    second.close();
  });
});

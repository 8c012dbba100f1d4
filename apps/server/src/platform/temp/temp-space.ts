import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';

/** `<host>-<pid>-<boot>`: the folder of one Mixroom process. */
const OWNER = /^(.+)-(\d+)-([0-9a-f]{8})$/;

/** Folders of the spaces open in this process (tests run several servers in one process). */
const openHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Temporary files under DATA_DIR/tmp rather than the system's temp folder, where a process killed
 * mid-work would leave them for good. Each process works in a folder of its own, named after its
 * host, pid and start, so nodes sharing a data directory never sweep each other's work. Opening the
 * space removes what dead processes of this host left, and remembers what it was (`leftovers`): a
 * work folder left there names work that was interrupted.
 */
export class TempSpace {
  private constructor(
    /** This process's own folder. */
    readonly dir: string,
    /** Names of the work folders and files dead processes left (removed already). */
    readonly leftovers: string[],
  ) {}

  static open(root: string): TempSpace {
    mkdirSync(root, { recursive: true });
    const host = hostname().replace(/[^A-Za-z0-9.]/g, '_');
    const own = `${host}-${process.pid}-${randomBytes(4).toString('hex')}`;
    const leftovers: string[] = [];
    for (const entry of readdirSync(root)) {
      const owner = OWNER.exec(entry);
      if (!owner || owner[1] !== host || openHere.has(entry)) continue;
      const pid = Number(owner[2]);
      // Our own pid under another start is a previous life of this process (pid 1 in a container).
      if (pid !== process.pid && isAlive(pid)) continue;
      const folder = join(root, entry);
      leftovers.push(...readdirSync(folder));
      rmSync(folder, { recursive: true, force: true });
    }
    mkdirSync(join(root, own));
    openHere.add(own);
    return new TempSpace(join(root, own), leftovers);
  }

  /** A fresh folder for one piece of work; its name starts with `prefix-`. */
  folder(prefix: string): Promise<string> {
    return mkdtemp(join(this.dir, `${prefix}-`));
  }

  /** A path for one temporary file, not created yet. */
  file(name: string): string {
    return join(this.dir, `${randomBytes(8).toString('hex')}-${name}`);
  }

  remove(path: string): Promise<void> {
    return rm(path, { recursive: true, force: true });
  }

  /**
   * Removes this process's folder when its work is all done. Work a stop cut short stays, so the
   * next start finds it among the leftovers and takes it up again.
   */
  close(): void {
    openHere.delete(basename(this.dir));
    try {
      rmdirSync(this.dir);
    } catch {
      // Not empty (or gone): left for the next start's sweep.
    }
  }
}

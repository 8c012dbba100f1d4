import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { artifacts } from './browser';

/** The last lines a page's journal keeps: enough to see what led to a failure, small enough to print. */
const KEEP = 200;

/**
 * What a page did, for the moment a journey fails on a loaded machine where nobody watches:
 * its console, its uncaught errors, its navigations and the WebSocket frames' closes, each with the
 * seconds since the journal began.
 */
export class PageJournal {
  readonly lines: string[] = [];
  private readonly started = Date.now();

  constructor(
    readonly page: Page,
    readonly name: string,
  ) {
    page.on('console', (message) => this.add(`console.${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.add(`pageerror: ${error.message}`));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.add(`navigated: ${frame.url()}`);
    });
    page.on('websocket', (socket) => socket.on('close', () => this.add(`websocket closed: ${socket.url()}`)));
  }

  add(line: string): void {
    this.lines.push(`${((Date.now() - this.started) / 1000).toFixed(1)} s ${line}`);
    if (this.lines.length > KEEP) this.lines.shift();
  }
}

/**
 * Called inside a test: if it fails, each journal's page is photographed into e2e/artifacts (on CI
 * too: a failure is worth the encode) and its journal, URL and open dialogs are printed.
 */
export function reportOnFailure(journals: PageJournal[], label: string): void {
  onTestFailed(async () => {
    mkdirSync(artifacts, { recursive: true });
    for (const journal of journals) {
      const { page, name } = journal;
      const file = join(artifacts, `failed-${label}-${name}.png`);
      const shot = await page
        .screenshot({ path: file, timeout: 10_000 })
        .then(() => file)
        .catch((error: Error) => `no screenshot (${error.message.split('\n')[0]})`);
      const dialogs = await page
        .getByRole('dialog')
        .allInnerTexts()
        .catch(() => [] as string[]);
      console.log(
        [
          `--- ${name} at failure: ${page.url()}; ${shot}`,
          `dialogs: ${dialogs.length ? dialogs.map((d) => JSON.stringify(d.slice(0, 300))).join(' | ') : 'none'}`,
          ...journal.lines.slice(-80),
        ].join('\n'),
      );
    }
  });
}

import type { ReactNode } from 'react';
import type { Connector } from '@mixroom/contracts';

/** A file picked in one of the user's linked storage accounts: the server copies it into the transfer. */
export interface LinkedPick {
  connectorId: string;
  /** Its path in the linked account. */
  path: string;
  name: string;
  size: number;
  /** Which account it comes from, as the list shows it. */
  accountName: string;
}

/** The same file of the same account. */
export const sameLinked = (a: Pick<LinkedPick, 'connectorId' | 'path'>, b: Pick<LinkedPick, 'connectorId' | 'path'>) =>
  a.connectorId === b.connectorId && a.path === b.path;

/** A file clicked in the browser of one linked account. */
export type LinkedEntry = Pick<LinkedPick, 'connectorId' | 'path' | 'name' | 'size'>;

/**
 * One linked account browsed folder by folder (the connectors' cloud browser, handed in by the page):
 * every file in `chosen` is highlighted, and every file clicked is handed to `onPick`.
 */
export type LinkedBrowser = (props: {
  connector: Connector;
  /** The files of this account chosen so far. */
  chosen: LinkedEntry[];
  onPick: (entry: LinkedEntry) => void;
}) => ReactNode;

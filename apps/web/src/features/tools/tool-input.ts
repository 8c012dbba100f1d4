import type { ReactNode } from 'react';

/** What a task's audio comes from, as the screen holds it before Process. */
export type ToolInput =
  | { kind: 'file'; file: File }
  | { kind: 'link'; url: string }
  | { kind: 'version'; versionId: string; name: string; projectId: string | null; durationSeconds: number | null }
  | { kind: 'linked'; connectorId: string; path: string; name: string };

export const inputName = (input: ToolInput): string =>
  input.kind === 'file' ? input.file.name : input.kind === 'link' ? input.url : input.name;

/**
 * The page's browser of linked storage accounts, handed in by the page (features don't reach into
 * each other's components): it calls `onPick` with the file the user chose.
 */
export type LinkedPicker = (onPick: (input: ToolInput) => void) => ReactNode;

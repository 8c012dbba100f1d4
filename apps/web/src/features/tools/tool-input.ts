/** What a task's audio comes from, as the screen holds it before Process. */
export type ToolInput =
  | { kind: 'file'; file: File }
  | { kind: 'link'; url: string }
  | { kind: 'version'; versionId: string; name: string; projectId: string | null; durationSeconds: number | null };

export const inputName = (input: ToolInput): string =>
  input.kind === 'file' ? input.file.name : input.kind === 'link' ? input.url : input.name;

import { lazy, Suspense } from 'react';
import type { Version } from '@mixroom/contracts';
import { useProject } from '../queries';

// The rich-text editor is only fetched when someone opens the notes.
const NotesDialog = lazy(() => import('../../review/components/notes-dialog'));

/**
 * A project's version notes from outside the version screen (tile menu, version menu): the newest
 * version unless one is named. Nothing shows while the project loads or when it has no versions.
 */
export function ProjectNotesDialog({
  projectId,
  versions,
  versionId,
  onClose,
}: {
  projectId: string | null;
  versions?: Version[];
  versionId?: string;
  onClose: () => void;
}) {
  const project = useProject(versions ? null : projectId);
  const list = versions ?? project.data?.versions ?? [];
  const initial = versionId ?? list[0]?.id;
  if (!projectId || !initial) return null;
  return (
    <Suspense fallback={null}>
      <NotesDialog versions={list} initialVersionId={initial} onClose={onClose} />
    </Suspense>
  );
}

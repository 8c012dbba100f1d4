import { AttachmentsDialog } from '../features/review/components/attachments-dialog';
import { ShareDialog } from '../features/sharing/components/share-dialog';
import { ProjectViewDialog, type ProjectViewSlots } from '../features/storage/components/project-view-dialog';

const SLOTS: ProjectViewSlots = { ShareDialog, AttachmentsDialog };

/** The storage feature's project view, with sharing and attachments from their own features. */
export function ProjectDialog({ projectId, onClose }: { projectId: string | null; onClose: () => void }) {
  return <ProjectViewDialog projectId={projectId} onClose={onClose} slots={SLOTS} />;
}

import { CloudBrowser } from '../features/connectors/components/cloud-browser';
import { SaveVersionToDialog } from '../features/connectors/components/save-version-to';
import { AttachmentsDialog } from '../features/review/components/attachments-dialog';
import { ShareDialog } from '../features/sharing/components/share-dialog';
import { ProjectViewDialog, type ProjectViewSlots } from '../features/storage/components/project-view-dialog';

const SLOTS: ProjectViewSlots = {
  ShareDialog,
  AttachmentsDialog,
  FilePicker: (picker) => <CloudBrowser {...picker} />,
  SaveVersionTo: SaveVersionToDialog,
};

/** The storage feature's project view, with sharing, attachments and the cloud storage browser from their own features. */
export function ProjectDialog({ projectId, onClose }: { projectId: string | null; onClose: () => void }) {
  return <ProjectViewDialog projectId={projectId} onClose={onClose} slots={SLOTS} />;
}

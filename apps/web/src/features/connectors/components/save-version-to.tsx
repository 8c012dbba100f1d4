import type { Version } from '@mixroom/contracts';
import { exportToConnector } from '../api';
import { SaveToDialog } from './save-to-dialog';

/**
 * A version's "Save to…": its original file into a folder the user picks in a linked account,
 * copied by the server in the background (the Activities panel follows it). `version` null: closed.
 */
export function SaveVersionToDialog({ version, onClose }: { version: Version | null; onClose: () => void }) {
  return (
    <SaveToDialog
      opened={version !== null}
      what={version ? `“${version.fileName}”` : ''}
      onClose={onClose}
      save={async (connector, folder) => {
        if (!version) throw new Error('No version to save.');
        return (await exportToConnector(connector.id, { versionId: version.id, folder })).transfer;
      }}
    />
  );
}

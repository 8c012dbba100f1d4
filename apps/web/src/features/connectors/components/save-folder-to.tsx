import { Menu } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { StorageItem } from '@mixroom/contracts';
import { exportFolderToConnector } from '../api';
import { useConnectors } from '../queries';
import { SaveToDialog } from './save-to-dialog';

/**
 * A folder's "Save to…": the menu item a page puts in a folder tile's menu (offered where the
 * server lets the user download the folder and an account is linked), and the dialog it opens. The
 * dialog lives beside the grid, not in the menu, which unmounts once an item is chosen.
 */
export function useSaveFolderTo(): { menuItem: (item: StorageItem) => ReactNode; dialog: ReactNode } {
  const linked = useConnectors().data?.linked ?? [];
  const [folder, setFolder] = useState<{ id: string; name: string } | null>(null);
  const menuItem = (item: StorageItem) =>
    item.kind === 'group' && item.capabilities.canDownload && linked.length > 0 ? (
      <Menu.Item
        leftSection={<IconCloudUpload size={16} />}
        onClick={() => setFolder({ id: item.id, name: item.name })}
      >
        Save to…
      </Menu.Item>
    ) : null;
  const dialog = (
    <SaveToDialog
      opened={folder !== null}
      what={folder ? `“${folder.name}” as a ZIP` : ''}
      onClose={() => setFolder(null)}
      save={async (connector, path) => {
        if (!folder) throw new Error('No folder to save.');
        return (await exportFolderToConnector(connector.id, { groupId: folder.id, folder: path })).transfer;
      }}
    />
  );
  return { menuItem, dialog };
}

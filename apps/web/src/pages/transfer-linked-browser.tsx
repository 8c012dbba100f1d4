import { FolderView } from '../features/connectors/components/folder-view';
import type { LinkedBrowser } from '../features/transfers/linked-pick';

/** The transfer's "From linked storage": one linked account in the connectors' folder view, several files chosen. */
export const transferLinkedBrowser: LinkedBrowser = ({ connector, chosen, onPick }) => (
  <FolderView
    connector={connector}
    accept="any"
    picked={null}
    chosen={chosen.map((c) => c.path)}
    onPick={(file) => {
      if (file?.source === 'linked')
        onPick({ connectorId: file.connectorId, path: file.path, name: file.name, size: file.size });
    }}
  />
);

import { FolderView } from '../features/connectors/components/cloud-browser';
import type { LinkedBrowser } from '../features/transfers/linked-pick';

/** The transfer's "From linked storage": one linked account in the connectors' cloud browser. */
export const transferLinkedBrowser: LinkedBrowser = ({ connector, picked, onPick }) => (
  <FolderView
    connector={connector}
    accept="any"
    picked={picked && { source: 'linked', ...picked }}
    onPick={(file) => {
      if (file?.source === 'linked')
        onPick({ connectorId: file.connectorId, path: file.path, name: file.name, size: file.size });
    }}
  />
);

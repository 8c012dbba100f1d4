import { FolderView } from '../features/connectors/components/cloud-browser';
import type { LinkedBrowser } from '../features/transfers/linked-pick';

/**
 * The cloud browser greys out files whose extension is not listed; a transfer takes any file, so
 * its list says yes to every extension.
 */
class AnyExtension extends Array<string> {
  override includes(): boolean {
    return true;
  }
}
const ANY: readonly string[] = new AnyExtension();

/** The transfer's "From linked storage": one linked account in the connectors' cloud browser. */
export const transferLinkedBrowser: LinkedBrowser = ({ connector, picked, onPick }) => (
  <FolderView
    connector={connector}
    accept={ANY}
    picked={picked && { source: 'linked', ...picked }}
    onPick={(file) => {
      if (file?.source === 'linked')
        onPick({ connectorId: file.connectorId, path: file.path, name: file.name, size: file.size });
    }}
  />
);

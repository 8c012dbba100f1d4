import { TOOLS_EXTENSIONS } from '@mixroom/shared';
import { CloudBrowser } from '../features/connectors/components/cloud-browser';
import type { LinkedPicker } from '../features/tools/tool-input';

const ACCEPT = TOOLS_EXTENSIONS.map((extension) => extension.replace(/^\./, ''));

/** The tools' "Linked storage" tab: the cloud browser, its pick turned into a tool's input. */
export const toolsLinkedPicker: LinkedPicker = (onPick) => (
  <CloudBrowser
    accept={ACCEPT}
    picked={null}
    onPick={(picked) => {
      if (!picked) return;
      onPick(
        picked.source === 'device'
          ? { kind: 'file', file: picked.file }
          : { kind: 'linked', connectorId: picked.connectorId, path: picked.path, name: picked.name },
      );
    }}
  />
);

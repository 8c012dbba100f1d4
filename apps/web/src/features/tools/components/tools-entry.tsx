import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconArrowsSplit, IconMicrophone2, IconWand } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { isToolsExtension } from '@mixroom/shared';

/** Where "Separate stems" and "Try a voice" lead: the tool's screen with the version already chosen. */
export const toolsLinkFor = (tool: 'stems' | 'revoice', version: { id: string; projectId: string }) =>
  `/tools/${tool === 'stems' ? 'stemseparation' : 'revoice'}?version=${version.id}&project=${version.projectId}`;

/** Whether the tools can take this version: one the user may download, in a format they read. */
export const toolsTake = (version: { fileName: string; status: string }, canDownload: boolean) =>
  canDownload && version.status === 'ready' && isToolsExtension(version.fileName);

/**
 * "Separate stems" and "Try a voice" as items of a library menu (a version's More menu, a project
 * tile's menu): a page passes them into the menu's slot, so storage and review import no tools code.
 */
export function ToolsMenuItems({ version }: { version: { id: string; projectId: string } }) {
  const navigate = useNavigate();
  return (
    <>
      <Menu.Item
        leftSection={<IconArrowsSplit size={16} />}
        onClick={() => void navigate(toolsLinkFor('stems', version))}
      >
        Separate stems
      </Menu.Item>
      <Menu.Item
        leftSection={<IconMicrophone2 size={16} />}
        onClick={() => void navigate(toolsLinkFor('revoice', version))}
      >
        Try a voice
      </Menu.Item>
    </>
  );
}

/** The same two entries behind one button, for a slot that takes a node beside a menu (the version screen's header). */
export function ToolsEntryMenu({ version }: { version: { id: string; projectId: string } }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label="AI tools">
          <ActionIcon variant="subtle" aria-label="AI tools for this version">
            <IconWand size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <ToolsMenuItems version={version} />
      </Menu.Dropdown>
    </Menu>
  );
}

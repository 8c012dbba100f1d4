import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { IconHome } from '@tabler/icons-react';
import { useState, type DragEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Crumb } from '@mixroom/contracts';
import type { ItemRef } from '../api';
import { isItemDrag, readDraggedItems } from '../drag-items';

function DropCrumb({
  to,
  targetId,
  onDropItems,
  children,
}: {
  to: string;
  targetId: string | null;
  onDropItems: (items: ItemRef[], to: string | null) => void;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const accept = (event: DragEvent) => {
    if (!isItemDrag(event.dataTransfer)) return;
    event.preventDefault();
    setOver(true);
  };
  return (
    <Anchor
      component={Link}
      to={to}
      onDragOver={accept}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        if (!isItemDrag(event.dataTransfer)) return;
        event.preventDefault();
        event.stopPropagation();
        onDropItems(readDraggedItems(event.dataTransfer), targetId);
      }}
      px={6}
      py={2}
      style={{
        borderRadius: 6,
        outline: over ? '2px dashed var(--mantine-color-violet-5)' : undefined,
        display: 'inline-flex',
        alignItems: 'center',
      }}
    >
      {children}
    </Anchor>
  );
}

/** Home icon, then every folder down to the current one; each crumb is a link and a drop target. */
export function StorageBreadcrumbs({
  crumbs,
  onDropItems,
}: {
  crumbs: Crumb[];
  onDropItems: (items: ItemRef[], to: string | null) => void;
}) {
  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs separatorMargin={2} style={{ flexWrap: 'wrap' }}>
        <DropCrumb to="/groups" targetId={null} onDropItems={onDropItems}>
          <IconHome size={18} aria-label="Home" />
        </DropCrumb>
        {crumbs.map((crumb, index) =>
          index === crumbs.length - 1 ? (
            <Text key={crumb.id} fw={600} maw={260} truncate>
              {crumb.name}
            </Text>
          ) : (
            <DropCrumb key={crumb.id} to={`/groups/${crumb.id}`} targetId={crumb.id} onDropItems={onDropItems}>
              <Text maw={200} truncate>
                {crumb.name}
              </Text>
            </DropCrumb>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}

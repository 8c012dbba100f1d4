import { ActionIcon, Indicator, Popover, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';

/**
 * The join-request notifications of spec 1 §4.5 (tabs Pending, Accepted, Rejected). Join requests
 * arrive with sharing; until then every tab shows the spec's empty text.
 */
export function NotificationsBell() {
  const tabs = ['Pending', 'Accepted', 'Rejected'] as const;
  return (
    <Popover width={340} position="bottom-end" shadow="md" withArrow>
      <Popover.Target>
        <Indicator disabled size={8} color="red" offset={4}>
          <ActionIcon variant="subtle" size="lg" aria-label="Notifications">
            <IconBell size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Tabs defaultValue="Pending">
          <Tabs.List grow>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab} value={tab}>
                {tab}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Panel key={tab} value={tab}>
              <ScrollArea.Autosize mah={500}>
                <Stack p="lg" align="center">
                  <Text c="dimmed" size="sm">
                    No Notifications
                  </Text>
                </Stack>
              </ScrollArea.Autosize>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Popover.Dropdown>
    </Popover>
  );
}

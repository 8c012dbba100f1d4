import { Anchor, Code, List, Modal, Tabs, Text } from '@mantine/core';
import { BRIDGE_COMMAND, BRIDGE_INSTALLER_URL } from '../links';

function Steps({ kind }: { kind: 'plugin' | 'system' }) {
  return (
    <List type="ordered" spacing="xs" size="sm">
      <List.Item>
        Download the installer: run <Code>{BRIDGE_COMMAND}</Code> in a terminal (it needs Node.js 22 and ffmpeg;{' '}
        <Anchor href={BRIDGE_INSTALLER_URL} target="_blank" rel="noreferrer">
          details
        </Anchor>
        ).
      </List.Item>
      {kind === 'plugin' ? (
        <List.Item>
          Set up the plugin: start the bridge with your DAW&apos;s output, e.g.{' '}
          <Code>{BRIDGE_COMMAND} --source input --device NAME</Code>, and select that output device in your DAW.
        </List.Item>
      ) : (
        <List.Item>
          Set up the driver: <Code>{BRIDGE_COMMAND}</Code> captures what this computer plays; select the loopback output
          device (BlackHole on macOS, Stereo Mix or a virtual cable on Windows).
        </List.Item>
      )}
      <List.Item>
        Start a Host session and pick the source: <b>{kind === 'plugin' ? 'Plugin' : 'System Wide'}</b> in the
        room&apos;s top bar (without the bridge, your browser&apos;s own audio input is used).
      </List.Item>
      <List.Item>Copy the Room Link and send it to your guests.</List.Item>
      <List.Item>To uninstall, run the installer again (or stop the bridge with Ctrl-C).</List.Item>
    </List>
  );
}

/** The two ways to broadcast, step by step. */
export function InstructionsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Instructions" size="lg" centered>
      <Tabs defaultValue="plugin">
        <Tabs.List>
          <Tabs.Tab value="plugin">Broadcast with plugin</Tabs.Tab>
          <Tabs.Tab value="system">Broadcast system wide</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plugin" pt="md">
          <Steps kind="plugin" />
        </Tabs.Panel>
        <Tabs.Panel value="system" pt="md">
          <Steps kind="system" />
        </Tabs.Panel>
      </Tabs>
      <Text size="xs" c="dimmed" mt="md">
        The bridge listens on this computer only (ports 7777/7778 for the plugin, 7775/7776 system wide).
      </Text>
    </Modal>
  );
}

import { Box, Card, Center, Drawer, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconUsers } from '@tabler/icons-react';
import { LIVE_MESSAGES, LIVE_RECORDING_PREFIX } from '@mixroom/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { listAudioInputs, type AudioInput } from '../features/live/audio/capture';
import { SILENCE_DB } from '../features/live/audio/level';
import { recordingFileName } from '../features/live/audio/wav';
import { InstructionsDialog } from '../features/live/components/instructions-dialog';
import { LevelMeter } from '../features/live/components/level-meter';
import { ParticipantsPanel, type Participant } from '../features/live/components/participants-panel';
import { RoomTopBar } from '../features/live/components/room-top-bar';
import { SaveRecordingDialog } from '../features/live/components/save-recording-dialog';
import { StartPrompt } from '../features/live/components/start-prompt';
import { useLiveRoom } from '../features/live/hooks/use-live-room';
import { guestRoomLink } from '../features/live/links';
import { TalkbackControls, useTalkback } from '../features/talkback';
import { notify } from '../lib/notify';
import { Button } from '@mantine/core';

/** /live/joined/{code}/{type}: the room. Type host is the host's room; any other type is a guest. */
export function LiveRoomPage() {
  const { code = '', type } = useParams();
  const roomType = type === 'host' ? 'host' : 'guest';
  const room = useLiveRoom(code.trim().toLowerCase(), roomType);
  const { session, engine, snapshot } = room;
  const navigate = useNavigate();
  const mobile = useMediaQuery('(max-width: 999px)');
  const [instructions, setInstructions] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [inputs, setInputs] = useState<AudioInput[]>([]);
  const [lastRecording, setLastRecording] = useState<{ blob: Blob; fileName: string } | null>(null);
  const [saving, setSaving] = useState(false);

  const publisher = session?.you.canPublish ?? false;
  useEffect(() => {
    if (publisher && snapshot.publishState === 'connected') void listAudioInputs().then(setInputs);
  }, [publisher, snapshot.publishState]);

  const selfId = session?.you.userId ?? null;
  const talkback = useTalkback(engine, code.trim().toLowerCase(), selfId, room.phase === 'in' && session !== null);
  const participants: Participant[] = useMemo(() => {
    if (!session) return [];
    return session.streams
      .filter((s) => s.isHost || s.isOnline || room.present.has(s.userId) || s.userId === selfId)
      .map((s) => ({
        userId: s.userId,
        displayName: s.displayName,
        photoUrl: s.photoUrl,
        isHost: s.isHost,
        isEnabled: s.isEnabled,
        isOnline: s.userId === selfId || (s.isOnline && (room.present.size === 0 || room.present.has(s.userId))),
        isSelf: s.userId === selfId,
      }))
      .sort((a, b) => Number(b.isHost) - Number(a.isHost) || a.displayName.localeCompare(b.displayName));
  }, [session, room.present, selfId]);

  // Whose audio a slot carries comes from the server's slot map; until it arrives, one other
  // publisher owns every received slot (the usual room: one host), and several share the loudest.
  const otherPublishers = participants.filter((p) => !p.isSelf && (p.isHost || p.isEnabled)).length;
  const level = useCallback(
    (p: Participant) => {
      if (!engine) return SILENCE_DB;
      if (p.isSelf) return engine.ownLevel();
      if (!(p.isHost || p.isEnabled)) return SILENCE_DB;
      return engine.participantLevel(p.userId) ?? (otherPublishers > 0 ? engine.loudestSlotLevel() : SILENCE_DB);
    },
    [engine, otherPublishers],
  );

  const onRecord = async () => {
    if (!engine) return;
    if (snapshot.recording === 'idle') {
      if (session && !session.recordingAllowed) {
        return void room.alert(LIVE_MESSAGES.recordingTitle, LIVE_MESSAGES.recordingNotAvailable);
      }
      return void engine.startRecording();
    }
    const blob = await engine.stopRecording();
    const fileName = recordingFileName(LIVE_RECORDING_PREFIX, new Date());
    setLastRecording({ blob, fileName });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const copyRoomLink = () => {
    if (!session) return;
    void navigator.clipboard.writeText(guestRoomLink(session.liveUrl, session.code)).catch(() => undefined);
    notify('success', 'Live', LIVE_MESSAGES.roomLinkCopiedTopBar);
  };

  const panel = (hideTitle: boolean) =>
    session && (
      <ParticipantsPanel
        participants={participants}
        hostView={session.you.role === 'host'}
        coHostAllowed={session.coHostAllowed}
        level={level}
        onCoHost={(userId, enabled) => void room.setCoHost(userId, enabled)}
        speaking={(p) => talkback.snapshot.speaking.has(p.userId)}
        hideTitle={hideTitle}
      />
    );

  return (
    <Stack gap="md">
      <StartPrompt
        opened={room.phase === 'prompt' || room.phase === 'entering'}
        busy={room.phase === 'entering'}
        onOk={() => void room.begin()}
      />
      <Group justify="space-between" wrap="nowrap">
        <Title order={2} style={{ minWidth: 0 }}>
          {roomType === 'host' ? 'Your live room' : 'Live room'}
        </Title>
        {mobile && session && (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconUsers size={14} />}
            onClick={() => setPanelOpen(true)}
            style={{ flexShrink: 0 }}
          >
            Participants ({participants.length})
          </Button>
        )}
      </Group>
      {room.phase === 'in' && !session && (
        <Center h={200}>
          <Loader />
        </Center>
      )}
      {session && (
        <>
          <Card withBorder padding="sm" radius="md">
            <RoomTopBar
              publisher={publisher}
              snapshot={snapshot}
              inputs={inputs}
              remainingMs={room.remainingMs}
              canRecord={session.recordingAllowed}
              onQuality={(b) => void room.setQuality(b).catch((e: Error) => notify('error', 'Live', e.message))}
              onSource={(s, d) => void room.setSource(s, d).catch((e: Error) => notify('error', 'Live', e.message))}
              onAutoMute={(on) => engine?.setAutoMute(on)}
              onLossless={room.setLossless}
              onRecord={() => void onRecord()}
              onInstructions={() => setInstructions(true)}
              onRoomLink={copyRoomLink}
              onExit={() => void navigate('/live/')}
              ownLevel={() => engine?.ownLevel() ?? SILENCE_DB}
              masterLevel={() => engine?.masterLevel() ?? SILENCE_DB}
            />
          </Card>
          {lastRecording && session.recordingAllowed && (
            <Group gap="sm">
              <Text size="sm" c="dimmed">
                Recorded {lastRecording.fileName}
              </Text>
              <Button size="xs" variant="light" onClick={() => setSaving(true)}>
                Save to project
              </Button>
            </Group>
          )}
          <Card withBorder padding="sm" radius="md">
            <TalkbackControls
              snapshot={talkback.snapshot}
              selfId={selfId}
              duckDb={talkback.duckDb}
              onMute={(muted) => talkback.engine?.setMuted(muted)}
              onCamera={(on) => void talkback.engine?.setCamera(on)}
              nameOf={(userId) => session.streams.find((s) => s.userId === userId)?.displayName ?? ''}
              onDuckDb={talkback.setDuckDb}
            />
          </Card>
          <Group align="stretch" gap="md" wrap="nowrap">
            <Card withBorder padding="lg" radius="md" style={{ flex: 1, minWidth: 0 }}>
              <Stack gap="sm">
                <Text fw={600}>{publisher ? 'You are live' : 'Listening'}</Text>
                <Text size="sm" c="dimmed">
                  {publisher
                    ? 'Your audio goes to everyone in the room in stereo. Pick Plugin or System Wide to stream from the Mixroom bridge; otherwise your browser’s audio input is used.'
                    : 'You hear the host and co-hosts here, in stereo. Keep this tab open.'}
                </Text>
                <Box>
                  <Text size="xs" c="dimmed" mb={4}>
                    Room
                  </Text>
                  <LevelMeter
                    level={() => engine?.masterLevel() ?? SILENCE_DB}
                    width="100%"
                    height={10}
                    label="Room output"
                  />
                </Box>
                {publisher && (
                  <Box>
                    <Text size="xs" c="dimmed" mb={4}>
                      You
                    </Text>
                    <LevelMeter
                      level={() => engine?.ownLevel() ?? SILENCE_DB}
                      width="100%"
                      height={10}
                      label="Your output"
                    />
                  </Box>
                )}
                {snapshot.error && snapshot.publishState !== 'connected' && snapshot.viewState !== 'connected' && (
                  <Text size="xs" c="red">
                    {snapshot.error}
                  </Text>
                )}
              </Stack>
            </Card>
            {!mobile && (
              <Card withBorder padding="md" radius="md" w={300} style={{ flex: 'none' }}>
                {panel(false)}
              </Card>
            )}
          </Group>
          <Drawer
            opened={Boolean(mobile) && panelOpen}
            onClose={() => setPanelOpen(false)}
            position="right"
            title={`Participants (${participants.length})`}
            size="xs"
          >
            {panel(true)}
          </Drawer>
        </>
      )}
      <InstructionsDialog opened={instructions} onClose={() => setInstructions(false)} />
      <SaveRecordingDialog
        code={code.trim().toLowerCase()}
        recording={saving ? lastRecording : null}
        onClose={() => setSaving(false)}
      />
    </Stack>
  );
}

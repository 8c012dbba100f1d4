import { Box, Button, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { InvitationPreview } from '@mixroom/contracts';
import { invitedTo } from '@mixroom/shared';
import { Logo } from '../components/logo';
import { api } from '../lib/api-client';
import { useAuth } from '../lib/auth/auth-context';

export const PENDING_JOIN_KEY = 'mixroom.pendingJoin';

/** Who invites to what, for an invitee who is not signed in yet; the invitation code is the secret. */
function useInvitationPreview(code: string | null) {
  return useQuery({
    queryKey: ['sharing', 'invitation-preview', code ?? ''],
    queryFn: ({ signal }) =>
      api<InvitationPreview>(`/api/public/invitations/${encodeURIComponent(code ?? '')}`, { signal }),
    enabled: Boolean(code),
    retry: false,
    meta: { silent: true },
  });
}

/**
 * /join and /bootstrap: keep the invitation's id and type for the Join Request dialog. A signed-in
 * user goes on to /groups, where the dialog opens. Someone signed out is told who invites them to
 * what, and comes back here after signing in or creating an account.
 */
export function JoinPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { ready, user, signIn } = useAuth();
  const id = params.get('id');
  const type = params.get('type');
  const invite = params.get('invite');
  const preview = useInvitationPreview(invite);

  useEffect(() => {
    if (id && (type === 'group' || type === 'project'))
      localStorage.setItem(PENDING_JOIN_KEY, JSON.stringify({ id, type, invite }));
    if (ready && user) void navigate('/groups', { replace: true });
  }, [id, type, invite, ready, user, navigate]);

  if (!ready || user) {
    return (
      <Center h="100vh">
        <Loader color="violet" />
      </Center>
    );
  }

  const returnTo = `/join?${params.toString()}`;
  const invitation = preview.data;
  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Logo to="/public/landing" />
      </Container>
      <Center mih="60vh" px="md">
        <Paper withBorder radius="lg" p="xl" maw={460} w="100%">
          <Stack align="center" ta="center" gap="sm">
            <IconUsersGroup size={48} stroke={1.3} color="var(--mantine-color-violet-4)" />
            {preview.isPending && params.get('invite') ? (
              <Loader color="violet" size="sm" />
            ) : invitation ? (
              <>
                <Title order={3}>{invitedTo(invitation.type, invitation.name)}</Title>
                <Text c="dimmed">
                  {invitation.inviter} shares this {invitation.type === 'group' ? 'folder' : 'project'} in Mixroom. Sign
                  in or create a free account, then ask to join: {invitation.inviter} approves who comes in.
                </Text>
              </>
            ) : (
              <>
                <Title order={3}>You have been invited to Mixroom</Title>
                <Text c="dimmed">
                  {preview.isError
                    ? 'This invitation link is no longer valid. Ask the person who sent it for a new one.'
                    : 'Sign in or create a free account to see what was shared with you and ask to join.'}
                </Text>
              </>
            )}
            <Group mt="sm">
              <Button variant="default" onClick={() => void signIn({ screen: 'signin', returnTo })}>
                Sign in
              </Button>
              <Button onClick={() => void signIn({ screen: 'signup', returnTo })}>Create account</Button>
            </Group>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}

import { Box, Container, Group } from '@mantine/core';
import { useParams } from 'react-router';
import { Logo } from '../components/logo';
import { PublicLiveView } from '../features/broadcast/components/public-live-view';
import { useAuth } from '../lib/auth/auth-context';

/** /public/live/{code}: listen to a broadcast by its code, with or without an account. */
export function PublicLivePage() {
  const { code = '' } = useParams();
  const { user } = useAuth();
  return (
    <Box mih="100vh">
      <Container size="lg" py="md">
        <Group justify="space-between">
          <Logo to={user ? '/groups' : '/public/landing'} />
        </Group>
      </Container>
      <PublicLiveView code={code.trim().toLowerCase()} />
    </Box>
  );
}

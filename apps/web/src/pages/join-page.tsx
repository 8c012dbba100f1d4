import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

export const PENDING_JOIN_KEY = 'mixroom.pendingJoin';

/**
 * /join and /bootstrap (spec 1 §2.2): keep the invitation's id and type, then go to /groups, where
 * the Join Request dialog picks them up after sign-in.
 */
export function JoinPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const id = params.get('id');
    const type = params.get('type');
    if (id && (type === 'group' || type === 'project')) localStorage.setItem(PENDING_JOIN_KEY, JSON.stringify({ id, type }));
    void navigate('/groups', { replace: true });
  }, [params, navigate]);
  return (
    <Center h="100vh">
      <Loader color="violet" />
    </Center>
  );
}

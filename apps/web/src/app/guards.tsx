import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';
import { rememberReturnTo } from '../lib/auth/auth-client';
import { useMe } from '../features/users/queries';

const FullPageLoader = () => (
  <Center h="100vh">
    <Loader color="violet" />
  </Center>
);

/** Public guard: always allows. */
export function PublicGuard() {
  return <Outlet />;
}

/**
 * Login guard: signed-out visitors at / or /groups see the landing page; a deeper URL is
 * remembered and the visitor is sent to sign in. The user's data is loaded before entering.
 */
export function LoginGuard({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  const me = useMe();
  if (!user) {
    if (location.pathname === '/' || location.pathname === '/groups') return <Navigate to="/public/landing" replace />;
    rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to="/public/sign-in" replace />;
  }
  if (me.isPending) return <FullPageLoader />;
  if (me.isError) return <Navigate to="/unauthorized" replace />;
  return <>{children}</>;
}

/** Admin guard: the server's capability decides; the API refuses non-admins regardless. */
export function AdminGuard() {
  const me = useMe();
  if (me.isPending) return <FullPageLoader />;
  if (!me.data?.capabilities.admin) return <Navigate to="/forbidden" replace />;
  return <Outlet />;
}

import { Navigate } from 'react-router';
import { useAuth } from '../lib/auth/auth-context';

/** The empty path: /groups when signed in, the public landing page otherwise. */
export function RootRedirect() {
  return <Navigate to={useAuth().user ? '/groups' : '/public/landing'} replace />;
}

import { createBrowserRouter, Navigate } from 'react-router';
import { AppShellLayout } from './shell/app-shell-layout';
import { AdminGuard, LoginGuard, PublicGuard } from './guards';
import { AdminAuditPage } from '../pages/admin-audit-page';
import { AdminOverviewPage } from '../pages/admin-overview-page';
import { AdminUsersPage } from '../pages/admin-users-page';
import { AuthCallbackPage } from '../pages/auth-callback-page';
import { ConfirmEmailPage } from '../pages/confirm-email-page';
import { FileRequestPage } from '../pages/file-request-page';
import { FileRequestsPage } from '../pages/file-requests-page';
import { GroupsPage } from '../pages/groups-page';
import { PublicSharePage } from '../pages/public-share-page';
import { TrashPage } from '../pages/trash-page';
import { TransferEditPage } from '../pages/transfer-edit-page';
import { TransferHistoryPage } from '../pages/transfer-history-page';
import { TransferPage } from '../pages/transfer-page';
import { VersionRoute } from './version-route';
import { InteractionPage } from '../pages/interaction-page';
import { JoinPage } from '../pages/join-page';
import { LivePage } from '../pages/live-page';
import { LiveRoomPage } from '../pages/live-room-page';
import { BroadcastRoomPage } from '../pages/broadcast-room-page';
import { PublicLivePage } from '../pages/public-live-page';
import { LandingPage } from '../pages/landing-page';
import { ResetPasswordPage } from '../pages/reset-password-page';
import { RootRedirect } from '../pages/root-redirect';
import { SettingsPage } from '../pages/settings-page';
import { SignInPage } from '../pages/sign-in-page';
import { StatusPage } from '../pages/status-page';
import { ToolsHistoryPage } from '../pages/tools-history-page';
import { ToolsPage } from '../pages/tools-page';
import { ToolsRevoicePage } from '../pages/tools-revoice-page';
import { ToolsStemSeparationPage } from '../pages/tools-stemseparation-page';

/** The route table: every screen's path, and who may open it. */
export const router = createBrowserRouter([
  { path: '/', element: <RootRedirect /> },
  {
    path: '/public',
    element: <PublicGuard />,
    children: [
      { index: true, element: <Navigate to="/public/landing" replace /> },
      { path: 'landing', element: <LandingPage /> },
      { path: 'sign-in', element: <SignInPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'confirm-email', element: <ConfirmEmailPage /> },
      { path: 'share', element: <PublicSharePage /> },
      { path: 'request', element: <FileRequestPage /> },
      { path: 'transfer', element: <TransferPage visitor /> },
      { path: 'live/:code', element: <PublicLivePage /> },
    ],
  },
  { path: '/join', element: <JoinPage /> },
  { path: '/bootstrap', element: <JoinPage /> },
  { path: '/auth/callback', element: <AuthCallbackPage /> },
  { path: '/oidc/interaction/:uid', element: <InteractionPage /> },
  { path: '/forbidden', element: <StatusPage kind="forbidden" /> },
  { path: '/unauthorized', element: <StatusPage kind="unauthorized" /> },
  {
    element: (
      <LoginGuard>
        <AppShellLayout />
      </LoginGuard>
    ),
    children: [
      { path: '/home', element: <Navigate to="/groups" replace /> },
      { path: '/landing', element: <LandingPage embedded /> },
      { path: '/groups', element: <GroupsPage /> },
      { path: '/groups/trash', element: <TrashPage /> },
      { path: '/groups/:groupId', element: <GroupsPage /> },
      { path: '/version/:projectId/:versionNumber', element: <VersionRoute /> },
      { path: '/live', element: <LivePage /> },
      { path: '/live/joined/:code/broadcaster', element: <BroadcastRoomPage /> },
      { path: '/live/joined/:code/:type', element: <LiveRoomPage /> },
      { path: '/tools', element: <ToolsPage /> },
      { path: '/tools/revoice', element: <ToolsRevoicePage /> },
      { path: '/tools/stemseparation', element: <ToolsStemSeparationPage /> },
      { path: '/tools/history', element: <ToolsHistoryPage /> },
      { path: '/transfer', element: <TransferPage /> },
      { path: '/transfer/history', element: <TransferHistoryPage /> },
      { path: '/transfer/requests', element: <FileRequestsPage /> },
      { path: '/transfer/history/:transferId', element: <TransferEditPage /> },
      { path: '/settings', element: <SettingsPage /> },
      { path: '/admin', element: <Navigate to="/admin/users" replace /> },
      {
        element: <AdminGuard />,
        children: [
          { path: '/admin/users', element: <AdminUsersPage /> },
          { path: '/admin/audit', element: <AdminAuditPage /> },
          { path: '/admin/overview', element: <AdminOverviewPage /> },
        ],
      },
      { path: '*', element: <StatusPage kind="not-found" /> },
    ],
  },
]);

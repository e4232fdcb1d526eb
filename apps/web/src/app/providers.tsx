import type { ReactNode } from 'react';
import { useAuth } from '../features/auth';
import { RealtimeProvider } from '../features/realtime';
import { SessionsProvider } from '../features/sessions';
import { OrganizationProvider, useOrganization } from '../lib/organization';

/** The user's socket, acting in the current organization (the sidebar's choice). */
function RealtimeInOrganization({ children }: { children: ReactNode }) {
  const { user, token, isAuthenticated } = useAuth();
  const { currentId } = useOrganization();
  const userId = isAuthenticated && user ? user.id : null;
  return (
    <RealtimeProvider
      userId={userId}
      token={isAuthenticated ? token : null}
      organizationId={userId && currentId !== userId ? currentId : null}
    >
      <SessionsProvider userId={userId}>{children}</SessionsProvider>
    </RealtimeProvider>
  );
}

/**
 * What exists for a signed-in user: their current organization, their realtime socket and their
 * sessions. Features do not import each other, so the auth state reaches them here as plain props.
 */
export function UserScopedProviders({ children }: { children: ReactNode }) {
  const { user, isAuthenticated } = useAuth();
  const userId = isAuthenticated && user ? user.id : null;
  return (
    <OrganizationProvider userId={userId}>
      <RealtimeInOrganization>{children}</RealtimeInOrganization>
    </OrganizationProvider>
  );
}

import { useParams } from 'react-router';
import { FullPageSpinner } from '../components/spinner';
import { useAuth } from '../features/auth';
import { InvitationPage, OrganizationScreen } from '../features/organization';

/** The Organization screen (/organization), with the signed-in user's id (their own row, their personal one). */
export function Organization() {
  const { user } = useAuth();
  if (!user) return null;
  return <OrganizationScreen userId={user.id} />;
}

/** An invitation link (/invitations/:token), for visitors and signed-in users alike. */
export function Invitation() {
  const { token = '' } = useParams();
  const { isAuthenticated, isLoading } = useAuth();
  if (isLoading) return <FullPageSpinner label="Checking your sign-in" />;
  return <InvitationPage key={token} token={token} signedIn={isAuthenticated} />;
}

import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-error';
import { exchangeSso, ssoErrorText } from '../api/sso';
import { useAuth } from '../auth-context';
import { SSO_RETURN_KEY } from '../components/sso-sign-in';

/**
 * The login page's side of a single sign-on coming back (docs/SSO.md): `?sso=complete` collects the
 * login token (once: the code behind it works once, so a second run of this effect must not spend
 * it), `?sso_error=CODE` is said in words (given to `onFailure`, the page's alert). Either way the
 * query leaves the address bar. Answers whether the token is being collected.
 */
export function useSsoReturn(
  safeReturnPath: (from: string | undefined) => string,
  onFailure: (text: string) => void,
) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const complete = params.get('sso') === 'complete';
  const errorCode = params.get('sso_error');
  const [busy, setBusy] = useState(complete);
  const started = useRef(false);

  useEffect(() => {
    if (!complete && !errorCode) return;
    if (errorCode) {
      onFailure(ssoErrorText(errorCode));
      navigate('/login', { replace: true });
      return;
    }
    if (started.current) return;
    started.current = true;
    const from = sessionStorage.getItem(SSO_RETURN_KEY) ?? undefined;
    sessionStorage.removeItem(SSO_RETURN_KEY);
    exchangeSso()
      .then((response) => {
        signIn(response);
        toast.success('Login successful!');
        navigate(safeReturnPath(from), { replace: true });
      })
      .catch((error: unknown) => {
        // The server's own words (SSO_HANDOFF_INVALID's, a rate limit's) or the network's.
        const text = error instanceof ApiError ? (error.detail ?? error.message) : undefined;
        onFailure(text ?? ssoErrorText('SSO_HANDOFF_INVALID'));
        setBusy(false);
        navigate('/login', { replace: true });
      });
  }, [complete, errorCode, navigate, signIn, safeReturnPath, onFailure]);

  return { busy };
}

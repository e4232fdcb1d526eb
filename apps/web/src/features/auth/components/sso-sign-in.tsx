import { KeyRound } from 'lucide-react';
import { SSO_START_PATH, useSsoStatus } from '../api/sso';

/** Where the login page keeps the path to return to while the browser is at the provider. */
export const SSO_RETURN_KEY = 'argus.sso.from';

/**
 * "Sign in with <provider>" below the password form, only when the server offers single sign-on
 * (docs/SSO.md). A link, not a fetch: the browser goes to the provider's own pages and comes back to
 * /login, which finishes the sign-in.
 */
export function SsoSignIn({ returnTo }: { returnTo?: string }) {
  const { data } = useSsoStatus();
  if (!data?.enabled) return null;
  return (
    <div className="mt-6">
      <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" aria-hidden />
        or
        <span className="h-px flex-1 bg-slate-200" aria-hidden />
      </div>
      <a
        href={SSO_START_PATH}
        onClick={() => {
          if (returnTo) sessionStorage.setItem(SSO_RETURN_KEY, returnTo);
          else sessionStorage.removeItem(SSO_RETURN_KEY);
        }}
        className="mt-6 inline-flex w-full items-center justify-center gap-2 rounded-lg bg-white px-4 py-3 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <KeyRound className="size-4" aria-hidden />
        Sign in with {data.name ?? 'single sign-on'}
      </a>
    </div>
  );
}

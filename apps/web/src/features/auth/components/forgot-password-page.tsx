import { ArrowLeft, KeyRound } from 'lucide-react';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';

/** Honest: a self-hosted install has no mail service, so there is no reset-by-email flow. */
export function ForgotPasswordPage() {
  return (
    <AuthLayout title="Reset your password" subtitle="Forgotten passwords are reset by your administrator.">
      <div className="rounded-xl border border-slate-200 bg-slate-50 p-5">
        <div className="flex gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-100 text-indigo-600">
            <KeyRound className="size-5" aria-hidden />
          </span>
          <div className="space-y-2 text-sm text-slate-600">
            <p className="font-medium text-slate-900">
              Password reset by email is not available in a self-hosted install.
            </p>
            <p>
              Ask the administrator of this Argus server to reset your password for you, then sign in with the
              new one.
            </p>
          </div>
        </div>
      </div>
      <Link
        to="/login"
        className="mt-8 inline-flex items-center gap-2 text-sm font-semibold text-indigo-600 hover:text-indigo-500"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Back to sign in
      </Link>
    </AuthLayout>
  );
}

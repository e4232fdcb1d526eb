import { CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/logo';

const HIGHLIGHTS = [
  'Generate test suites from any URL in minutes',
  'Watch every step run in a real browser, live',
  'Compare designs with the live site, pixel by pixel',
];

/** Split screen for sign-in pages: the product on the left (wide screens), the form on the right. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-screen bg-white">
      <aside className="relative hidden w-[44%] max-w-xl flex-col justify-between overflow-hidden bg-indigo-950 p-12 text-white lg:flex">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_20%_20%,rgba(99,102,241,0.55),transparent_55%),radial-gradient(circle_at_80%_90%,rgba(139,92,246,0.35),transparent_50%)]"
        />
        <Link
          to="/"
          className="relative w-fit rounded-md focus-visible:outline-2 focus-visible:outline-white"
        >
          <Logo inverted />
        </Link>
        <div className="relative">
          <h2 className="text-3xl leading-tight font-semibold tracking-tight text-balance">
            AI-driven testing for every release.
          </h2>
          <p className="mt-4 max-w-md text-indigo-200">
            Point Argus at your web app and get a test suite you can run, watch and trust — on your own
            infrastructure.
          </p>
          <ul className="mt-8 space-y-3">
            {HIGHLIGHTS.map((text) => (
              <li key={text} className="flex items-start gap-3 text-sm text-indigo-100">
                <CircleCheck className="mt-0.5 size-5 shrink-0 text-indigo-300" aria-hidden />
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-indigo-300">Self-hosted · Your data stays on your servers</p>
      </aside>

      <main className="flex flex-1 flex-col items-center justify-center px-5 py-10 sm:px-10">
        <div className="w-full max-w-md">
          <Link
            to="/"
            className="mb-10 inline-block rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
          >
            <Logo />
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-2 text-sm text-slate-500">{subtitle}</p>
          <div className="mt-8">{children}</div>
          {footer && <div className="mt-8 text-center text-sm text-slate-600">{footer}</div>}
        </div>
      </main>
    </div>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3.5 py-3 text-sm text-red-700">
      {children}
    </div>
  );
}

import { ArrowRight, Check, CirclePlay } from 'lucide-react';
import { Link } from 'react-router';
import { FREE_TRIAL_DAYS } from '../pricing-plans';
import { FeatureShowcase } from './feature-showcase';

interface HeroProps {
  isAuthenticated: boolean;
  onWatchDemo: () => void;
}

export function Hero({ isAuthenticated, onWatchDemo }: HeroProps) {
  const primary = isAuthenticated
    ? { label: 'Start Testing Now', to: '/automation' }
    : { label: 'Start Free Trial', to: '/register' };

  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      {/* Backdrop: soft indigo/violet glows over a faint grid. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-linear-to-b from-indigo-50/80 via-white to-white"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,#e0e7ff55_1px,transparent_1px),linear-gradient(to_bottom,#e0e7ff55_1px,transparent_1px)] mask-[radial-gradient(ellipse_at_top,black,transparent_70%)] bg-size-[44px_44px]"
      />
      <div
        aria-hidden="true"
        className="absolute -top-32 left-1/2 -z-10 h-120 w-240 -translate-x-1/2 rounded-full bg-linear-to-tr from-indigo-300/40 via-violet-300/30 to-fuchsia-200/30 blur-3xl"
      />

      <div className="mx-auto grid max-w-7xl grid-cols-1 items-center gap-12 px-4 pt-14 pb-20 sm:px-6 sm:pt-20 lg:grid-cols-[1.05fr_1fr] lg:gap-16 lg:px-8 lg:pt-24 lg:pb-28">
        <div className="text-center lg:text-left">
          <p className="inline-flex items-center gap-2 rounded-full bg-white/80 px-3.5 py-1.5 text-xs font-semibold text-indigo-700 shadow-sm ring-1 ring-indigo-200">
            <span className="relative flex size-2">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-indigo-400 opacity-75" />
              <span className="relative inline-flex size-2 rounded-full bg-indigo-500" />
            </span>
            Coming soon · Early access now open
          </p>

          <h1
            id="hero-title"
            className="mt-6 text-4xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-5xl lg:text-6xl"
          >
            Web testing on autopilot,{' '}
            <span className="bg-linear-to-r from-indigo-600 to-violet-600 bg-clip-text text-transparent">
              powered by AI
            </span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg leading-relaxed text-pretty text-slate-600 lg:mx-0">
            Argus writes test suites from a URL, runs them in a real browser you can watch live, and checks
            your site against its design, so your team ships every release with confidence.
          </p>

          <div className="mt-9 flex flex-col items-center gap-3 sm:flex-row sm:justify-center lg:justify-start">
            <Link
              to={primary.to}
              className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-indigo-600 px-6 py-3.5 text-base font-semibold text-white shadow-lg shadow-indigo-600/30 transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 sm:w-auto"
            >
              {primary.label}
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <button
              type="button"
              onClick={onWatchDemo}
              className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-white px-6 py-3.5 text-base font-semibold text-slate-800 shadow-sm ring-1 ring-slate-300 transition hover:bg-slate-50 hover:ring-slate-400 sm:w-auto"
            >
              <CirclePlay className="size-5 text-indigo-600" aria-hidden="true" />
              Watch Demo
            </button>
          </div>

          <ul className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-slate-600 lg:justify-start">
            {[`${FREE_TRIAL_DAYS}-day free trial`, 'No credit card required', 'Self-hostable'].map((item) => (
              <li key={item} className="flex items-center gap-1.5">
                <Check className="size-4 text-emerald-500" aria-hidden="true" />
                {item}
              </li>
            ))}
          </ul>
        </div>

        <div className="mx-auto w-full max-w-xl lg:max-w-none">
          <FeatureShowcase />
        </div>
      </div>
    </section>
  );
}

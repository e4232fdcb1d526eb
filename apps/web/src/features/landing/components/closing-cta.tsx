import { MessageSquareText, WandSparkles } from 'lucide-react';
import { Link } from 'react-router';

export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="bg-white px-4 py-24 sm:px-6 sm:py-28 lg:px-8">
      <div className="relative isolate mx-auto max-w-5xl overflow-hidden rounded-3xl bg-linear-to-br from-indigo-600 via-indigo-600 to-violet-700 px-6 py-16 text-center shadow-2xl shadow-indigo-900/20 sm:px-16 sm:py-20">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 -z-10 size-80 rounded-full bg-fuchsia-400/30 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="absolute -bottom-24 -left-24 -z-10 size-80 rounded-full bg-sky-400/20 blur-3xl"
        />

        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          Ready to put your QA on autopilot?
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-indigo-100">
          Generate your first test suite in minutes, or explore your site with an AI co-pilot in a live
          browser.
        </p>

        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link
            to="/automation"
            className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-white px-6 py-3.5 text-base font-semibold text-indigo-700 shadow-lg transition hover:bg-indigo-50 sm:w-auto"
          >
            <WandSparkles className="size-5" aria-hidden="true" />
            Start Automation
          </Link>
          <Link
            to="/conversational"
            className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-white/10 px-6 py-3.5 text-base font-semibold text-white ring-1 ring-white/40 transition hover:bg-white/20 sm:w-auto"
          >
            <MessageSquareText className="size-5" aria-hidden="true" />
            Start Conversation
          </Link>
        </div>

        <p className="mt-8 text-sm font-semibold text-white">No credit card required</p>
        <p className="mt-1 text-sm text-indigo-200">14-day free trial • Cancel anytime</p>
      </div>
    </section>
  );
}

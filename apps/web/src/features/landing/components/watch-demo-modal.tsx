import { ArrowRight, CircleCheckBig, LoaderCircle } from 'lucide-react';
import { Link } from 'react-router';
import { Dialog } from '../../../components/dialog';

const WALKTHROUGH = [
  {
    title: 'Enter a URL',
    text: 'Paste the address of the site you want to test, or describe a flow in plain words.',
  },
  {
    title: 'AI writes the tests',
    text: 'Argus explores the pages and proposes test cases with steps and expected results.',
  },
  {
    title: 'Watch it run live',
    text: 'A real browser streams every click and keystroke while steps are logged.',
  },
  {
    title: 'Review the results',
    text: 'Pass or fail per test, with screenshots, logs and timings ready to export.',
  },
];

interface WatchDemoModalProps {
  open: boolean;
  onClose: () => void;
}

/** 'Watch Demo' (docs/PRODUCT.md#landing-page): a product walkthrough, and a button to try it live at /conversational. */
export function WatchDemoModal({ open, onClose }: WatchDemoModalProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      title="See Argus in action"
      description="A quick walkthrough of a test run, from a URL to results."
    >
      <div className="grid gap-6 md:grid-cols-[1.1fr_1fr]">
        <div
          aria-hidden="true"
          className="flex flex-col overflow-hidden rounded-xl bg-slate-950 ring-1 ring-slate-900/10"
        >
          <div className="flex items-center gap-1.5 border-b border-white/10 px-3 py-2">
            <span className="size-2 rounded-full bg-rose-400" />
            <span className="size-2 rounded-full bg-amber-400" />
            <span className="size-2 rounded-full bg-emerald-400" />
            <span className="ml-2 truncate rounded bg-white/10 px-2 py-0.5 font-mono text-[11px] text-slate-300">
              https://app.example.com/signup
            </span>
            <span className="ml-auto flex items-center gap-1 rounded bg-rose-600 px-1.5 py-0.5 text-[10px] font-bold text-white">
              <span className="size-1.5 animate-pulse rounded-full bg-white" /> LIVE
            </span>
          </div>
          <div className="grid flex-1 grid-cols-5 content-center gap-3 p-4">
            <div className="col-span-3 space-y-2 rounded-lg bg-white p-3">
              <div className="h-3 w-1/2 rounded bg-slate-300" />
              <div className="h-7 rounded border border-slate-200 bg-slate-50" />
              <div className="h-7 rounded border-2 border-indigo-500 bg-white" />
              <div className="h-7 w-2/3 rounded bg-indigo-500" />
            </div>
            <ul className="col-span-2 space-y-2 text-[11px] text-slate-300">
              <li className="flex items-center gap-1.5 text-emerald-400">
                <CircleCheckBig className="size-3.5 shrink-0" /> Open page
              </li>
              <li className="flex items-center gap-1.5 text-emerald-400">
                <CircleCheckBig className="size-3.5 shrink-0" /> Fill name
              </li>
              <li className="flex items-center gap-1.5 text-indigo-300">
                <LoaderCircle className="size-3.5 shrink-0 animate-spin" /> Fill email
              </li>
              <li className="flex items-center gap-1.5 text-slate-400">Submit form</li>
            </ul>
          </div>
          <div className="border-t border-white/10 px-4 py-2.5 text-[11px] text-slate-400">
            Test 2 of 6 · Sign-up validates the email address
          </div>
        </div>

        <ol className="space-y-4">
          {WALKTHROUGH.map((step, i) => (
            <li key={step.title} className="flex gap-3">
              <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-bold text-indigo-700">
                {i + 1}
              </span>
              <div>
                <p className="text-sm font-semibold text-slate-900">{step.title}</p>
                <p className="text-sm text-slate-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>

      <div className="mt-6 flex flex-col gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-500">
          The best demo is your own site. Try it in a live browser session.
        </p>
        <Link
          to="/conversational"
          className="inline-flex items-center justify-center gap-2 rounded-lg bg-indigo-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm transition hover:bg-indigo-500"
        >
          Try it live
          <ArrowRight className="size-4" aria-hidden="true" />
        </Link>
      </div>
    </Dialog>
  );
}

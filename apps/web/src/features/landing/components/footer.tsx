import { Link } from 'react-router';
import { SALES_EMAIL } from '../pricing-plans';
import { Brand } from './brand';

export function Footer({ onScheduleDemo }: { onScheduleDemo: () => void }) {
  const linkClass = 'text-sm text-slate-400 transition hover:text-white';
  return (
    <footer className="bg-slate-950 text-slate-300">
      <div className="mx-auto max-w-7xl px-4 pt-16 pb-10 sm:px-6 lg:px-8">
        <div className="grid grid-cols-2 gap-10 md:grid-cols-[1.5fr_1fr_1fr_1fr] md:gap-12">
          <div className="col-span-2 md:col-span-1">
            <Brand tone="light" />
            <p className="mt-4 max-w-xs text-sm leading-relaxed text-slate-400">
              AI-driven web testing and QA for developers, QA engineers and product teams. Self-hostable.
            </p>
          </div>
          <nav aria-label="Product">
            <h2 className="text-sm font-semibold text-white">Product</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <a href="#features" className={linkClass}>
                  Features
                </a>
              </li>
              <li>
                <a href="#how-it-works" className={linkClass}>
                  How it Works
                </a>
              </li>
              <li>
                <a href="#pricing" className={linkClass}>
                  Pricing
                </a>
              </li>
            </ul>
          </nav>
          <nav aria-label="Get started">
            <h2 className="text-sm font-semibold text-white">Get started</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <Link to="/register" className={linkClass}>
                  Create an account
                </Link>
              </li>
              <li>
                <Link to="/login" className={linkClass}>
                  Login
                </Link>
              </li>
              <li>
                <button type="button" onClick={onScheduleDemo} className={linkClass}>
                  Schedule a demo
                </button>
              </li>
            </ul>
          </nav>
          <nav aria-label="Company">
            <h2 className="text-sm font-semibold text-white">Company</h2>
            <ul className="mt-4 space-y-3">
              <li>
                <a href={`mailto:${SALES_EMAIL}`} className={linkClass}>
                  Contact sales
                </a>
              </li>
            </ul>
          </nav>
        </div>

        <div className="mt-14 flex flex-col gap-3 border-t border-white/10 pt-8 text-xs text-slate-400 sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Argus. All rights reserved.</p>
          <p>
            <span className="mr-2 rounded-full bg-indigo-500/15 px-2 py-0.5 font-semibold text-indigo-300">
              Coming soon
            </span>
            Features and pricing may change before general availability.
          </p>
        </div>
      </div>
    </footer>
  );
}

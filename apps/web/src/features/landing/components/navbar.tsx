import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Brand } from './brand';

const SECTION_LINKS = [
  { href: '#features', label: 'Features' },
  { href: '#how-it-works', label: 'How it Works' },
  { href: '#pricing', label: 'Pricing' },
];

export function Navbar({ onScheduleDemo }: { onScheduleDemo: () => void }) {
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    // Growing past the breakpoint hides the menu; don't leave it open for later.
    const wide = window.matchMedia('(min-width: 768px)');
    const onResize = () => wide.matches && setMenuOpen(false);
    document.addEventListener('keydown', onKeyDown);
    wide.addEventListener('change', onResize);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      wide.removeEventListener('change', onResize);
    };
  }, [menuOpen]);

  const closeMenu = () => setMenuOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/80 backdrop-blur-lg">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8"
      >
        <a
          href="#top"
          aria-label="Argus home"
          className="rounded-md focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          <Brand />
        </a>

        <ul className="hidden items-center gap-8 lg:flex">
          {SECTION_LINKS.map((link) => (
            <li key={link.href}>
              <a
                href={link.href}
                className="text-sm font-medium text-slate-600 transition hover:text-slate-900"
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>

        <div className="hidden items-center gap-2 md:flex">
          <button
            type="button"
            onClick={onScheduleDemo}
            className="rounded-lg px-3.5 py-2 text-sm font-semibold text-indigo-700 transition hover:bg-indigo-50"
          >
            Schedule Demo
          </button>
          <Link
            to="/login"
            className="rounded-lg px-3.5 py-2 text-sm font-semibold text-slate-700 transition hover:bg-slate-100"
          >
            Login
          </Link>
          <Link
            to="/register"
            className="rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm shadow-indigo-600/30 transition hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Get Started
          </Link>
        </div>

        <button
          type="button"
          className="-mr-1 inline-flex items-center justify-center rounded-lg p-2 text-slate-700 transition hover:bg-slate-100 md:hidden"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          aria-expanded={menuOpen}
          aria-controls="landing-mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? (
            <X className="size-6" aria-hidden="true" />
          ) : (
            <Menu className="size-6" aria-hidden="true" />
          )}
        </button>
      </nav>

      {menuOpen && (
        <div
          id="landing-mobile-menu"
          className="absolute inset-x-0 top-full border-t border-slate-200 bg-white px-4 pt-2 pb-5 shadow-xl md:hidden"
        >
          <ul className="space-y-1">
            {SECTION_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  onClick={closeMenu}
                  className="block rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-50"
                >
                  {link.label}
                </a>
              </li>
            ))}
            <li>
              <button
                type="button"
                onClick={() => {
                  closeMenu();
                  onScheduleDemo();
                }}
                className="block w-full rounded-lg px-3 py-2.5 text-left text-base font-medium text-indigo-700 hover:bg-indigo-50"
              >
                Schedule Demo
              </button>
            </li>
          </ul>
          <div className="mt-4 grid grid-cols-2 gap-3 border-t border-slate-100 pt-4">
            <Link
              to="/login"
              onClick={closeMenu}
              className="rounded-lg px-4 py-2.5 text-center text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
            >
              Login
            </Link>
            <Link
              to="/register"
              onClick={closeMenu}
              className="rounded-lg bg-indigo-600 px-4 py-2.5 text-center text-sm font-semibold text-white shadow-sm hover:bg-indigo-500"
            >
              Get Started
            </Link>
          </div>
        </div>
      )}
    </header>
  );
}

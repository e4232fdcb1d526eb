import type { ProjectSummary, User } from '@argus/protocol';
import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useMediaQuery } from '../../lib/use-media-query';
import { SIDEBAR_ID, Sidebar } from './sidebar';

/** docs/PRODUCT.md#authenticated-shell: the sidebar breakpoint (Tailwind's `lg`). */
export const SIDEBAR_BREAKPOINT_PX = 1024;
const COLLAPSED_KEY = 'argus.sidebar.collapsed';

function readCollapsed(): boolean {
  try {
    return localStorage.getItem(COLLAPSED_KEY) === '1';
  } catch {
    return false;
  }
}

export interface AppLayoutProps {
  user: User;
  onLogout: () => void;
  /** Shown at the right of the top bar (e.g. the connection status). */
  headerAside?: ReactNode;
  /** Shown above every screen (e.g. a request to reload the page); it brings its own spacing. */
  notice?: ReactNode;
  /** The user's projects, for the sidebar's Projects group. */
  projects?: readonly ProjectSummary[];
  /** The screen; defaults to the matched child route. */
  children?: ReactNode;
}

/** The authenticated shell (docs/PRODUCT.md#authenticated-shell): sidebar, top bar titled 'Testing', and the screen. */
export function AppLayout({ user, onLogout, headerAside, notice, projects, children }: AppLayoutProps) {
  const isDesktop = useMediaQuery(`(min-width: ${SIDEBAR_BREAKPOINT_PX}px)`);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const { pathname } = useLocation();

  // The overlay closes on navigation and when the window grows past the breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every route change
  useEffect(() => setMobileOpen(false), [pathname, isDesktop]);

  useEffect(() => {
    if (!mobileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMobileOpen(false);
    };
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    window.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = overflow;
      window.removeEventListener('keydown', onKey);
    };
  }, [mobileOpen]);

  const toggle = () => {
    if (isDesktop) {
      setCollapsed((value) => {
        try {
          localStorage.setItem(COLLAPSED_KEY, value ? '0' : '1');
        } catch {
          // remembered for this page only
        }
        return !value;
      });
    } else {
      setMobileOpen((value) => !value);
    }
  };

  const expanded = isDesktop ? !collapsed : mobileOpen;
  const ToggleIcon = isDesktop ? (collapsed ? PanelLeftOpen : PanelLeftClose) : mobileOpen ? X : Menu;

  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      {mobileOpen && (
        <div
          className="fixed inset-0 z-40 bg-slate-900/40 backdrop-blur-[2px] lg:hidden"
          data-testid="sidebar-backdrop"
          aria-hidden="true"
          onClick={() => setMobileOpen(false)}
        />
      )}
      <Sidebar
        user={user}
        onLogout={onLogout}
        compact={isDesktop && collapsed}
        mobileOpen={mobileOpen}
        projects={projects}
      />

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-3 border-b border-slate-200 bg-white/85 px-4 backdrop-blur sm:px-6">
          <button
            type="button"
            onClick={toggle}
            aria-label="Toggle sidebar"
            aria-controls={SIDEBAR_ID}
            aria-expanded={expanded}
            data-testid="sidebar-toggle"
            className="-ml-1 rounded-lg p-2 text-slate-500 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <ToggleIcon className="size-5" aria-hidden />
          </button>
          <span className="text-base font-semibold tracking-tight text-slate-900" data-testid="topbar-title">
            Testing
          </span>
          <div className="ml-auto flex items-center gap-3">{headerAside}</div>
        </header>
        <main className="flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
          {notice}
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}

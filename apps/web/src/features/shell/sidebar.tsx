import type { ProjectSummary, User } from '@argus/protocol';
import { LogOut } from 'lucide-react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { Logo, LogoMark } from '../../components/logo';
import { cn } from '../../lib/cn';
import { can, useOrganization } from '../../lib/organization';
import { MAIN_NAV, type NavItem, PROJECT_NAV, projectPath } from './navigation';
import { OrganizationSwitcher } from './organization-switcher';

export const SIDEBAR_ID = 'app-sidebar';

function initials(user: User): string {
  const source = user.full_name?.trim() || user.username;
  const parts = source.split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0][0]}${parts[1][0]}` : source.slice(0, 1);
  return letters.toUpperCase();
}

/**
 * One link of the sidebar, highlighted on its own page; a collapsed sidebar shows only its mark (the
 * label is then its tooltip and stays for screen readers).
 */
function SidebarLink({
  to,
  label,
  compact,
  testId,
  mark,
}: {
  to: string;
  label: string;
  compact: boolean;
  testId?: string;
  /** Drawn before the label, as the link is (active or not). */
  mark: (isActive: boolean) => ReactNode;
}) {
  return (
    <li>
      <NavLink
        to={to}
        end
        title={compact ? label : undefined}
        data-testid={testId}
        className={({ isActive }) =>
          cn(
            'group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
            'focus-visible:outline-2 focus-visible:outline-indigo-600',
            compact && 'justify-center px-0',
            isActive
              ? 'bg-indigo-50 text-indigo-700'
              : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          )
        }
      >
        {({ isActive }) => (
          <>
            {mark(isActive)}
            <span className={cn('truncate', compact && 'sr-only')}>{label}</span>
          </>
        )}
      </NavLink>
    </li>
  );
}

function NavEntry({ item, compact }: { item: NavItem; compact: boolean }) {
  const Icon = item.icon;
  return (
    <SidebarLink
      to={item.to}
      label={item.label}
      compact={compact}
      mark={(isActive) => (
        <Icon
          aria-hidden
          className={cn(
            'size-[18px] shrink-0',
            isActive ? 'text-indigo-600' : 'text-slate-400 group-hover:text-slate-600',
          )}
        />
      )}
    />
  );
}

/** One of the user's projects: its initial on a tile (all a collapsed sidebar shows), then its name. */
function ProjectEntry({ project, compact }: { project: ProjectSummary; compact: boolean }) {
  return (
    <SidebarLink
      to={projectPath(project.id)}
      label={project.name}
      compact={compact}
      testId="sidebar-project"
      mark={(isActive) => (
        <span
          aria-hidden
          className={cn(
            'flex size-[18px] shrink-0 items-center justify-center rounded-[5px] text-[10px] font-semibold',
            isActive ? 'bg-indigo-600 text-white' : 'bg-slate-200 text-slate-700 group-hover:bg-slate-300',
          )}
        >
          {project.name.trim().slice(0, 1).toUpperCase() || '?'}
        </span>
      )}
    />
  );
}

export interface SidebarProps {
  user: User;
  onLogout: () => void;
  /** Desktop only: icons without labels. */
  compact: boolean;
  /** Below 1024 px: whether the overlay is shown. */
  mobileOpen: boolean;
  /** The user's projects, listed atop the Projects group (none while they load). */
  projects?: readonly ProjectSummary[];
}

/**
 * docs/PRODUCT.md#authenticated-shell: a fixed overlay below 1024 px (shown on demand), inline from 1024 px (collapsible to an
 * icon rail). Main items, the Projects group (the user's projects, then the kinds and 'Add New Project'),
 * the user card and Logout.
 */
export function Sidebar({ user, onLogout, compact, mobileOpen, projects = [] }: SidebarProps) {
  const displayName = user.full_name?.trim() || user.username;
  const { role } = useOrganization();
  const projectNav = PROJECT_NAV.filter((item) => !item.needs || can(role, item.needs));
  const sortedProjects = [...projects].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  );
  return (
    <aside
      id={SIDEBAR_ID}
      aria-label="Sidebar"
      data-testid="sidebar"
      className={cn(
        'fixed inset-y-0 left-0 z-50 flex w-72 flex-col border-r border-slate-200 bg-white',
        'transition-[translate,visibility,width] duration-200 ease-out',
        'lg:sticky lg:top-0 lg:z-auto lg:h-screen lg:translate-x-0 lg:shadow-none',
        mobileOpen ? 'visible translate-x-0 shadow-2xl' : 'invisible -translate-x-full lg:visible',
        compact ? 'lg:w-[4.5rem]' : 'lg:w-72',
      )}
    >
      <div
        className={cn(
          'flex h-16 shrink-0 items-center border-b border-slate-100 px-5',
          compact && 'px-0 justify-center',
        )}
      >
        {compact ? <LogoMark /> : <Logo />}
      </div>
      <OrganizationSwitcher compact={compact} />

      <nav className="flex-1 overflow-y-auto px-3 py-5" aria-label="Main">
        <ul className="space-y-1">
          {MAIN_NAV.map((item) => (
            <NavEntry key={item.to} item={item} compact={compact} />
          ))}
        </ul>

        <div className="mt-8">
          <p
            className={cn(
              'px-3 pb-2 text-[11px] font-semibold tracking-wider text-slate-500 uppercase',
              compact && 'sr-only',
            )}
            id="sidebar-projects"
          >
            Projects
          </p>
          {compact && <div className="mx-3 mb-3 border-t border-slate-100" aria-hidden />}
          {sortedProjects.length > 0 && (
            <>
              <ul className="space-y-1" aria-label="Your projects" data-testid="sidebar-projects">
                {sortedProjects.map((project) => (
                  <ProjectEntry key={project.id} project={project} compact={compact} />
                ))}
              </ul>
              <div className="mx-3 my-3 border-t border-slate-100" aria-hidden />
            </>
          )}
          <ul className="space-y-1" aria-labelledby="sidebar-projects">
            {projectNav.map((item) => (
              <NavEntry key={item.to} item={item} compact={compact} />
            ))}
          </ul>
        </div>
      </nav>

      <div className="shrink-0 border-t border-slate-100 p-3">
        <div
          className={cn('flex items-center gap-3 rounded-lg p-2', compact && 'justify-center p-0 py-2')}
          data-testid="user-card"
        >
          <span
            className="relative flex size-9 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white"
            title={compact ? `${displayName} (${user.email}) · Active` : undefined}
            aria-hidden="true"
          >
            {initials(user)}
            <span className="absolute right-0 bottom-0 size-2.5 rounded-full bg-emerald-500 ring-2 ring-white" />
          </span>
          <div className={cn('min-w-0 flex-1', compact && 'sr-only')}>
            <div className="flex items-center gap-2">
              <p className="truncate text-sm font-semibold text-slate-900">{displayName}</p>
              <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-50 px-1.5 py-0.5 text-[10px] font-medium text-emerald-700">
                <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden />
                Active
              </span>
            </div>
            <p className="truncate text-xs text-slate-500" title={user.email}>
              {user.email}
            </p>
          </div>
        </div>
        <button
          type="button"
          onClick={onLogout}
          title={compact ? 'Logout' : undefined}
          className={cn(
            'mt-1 flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 transition-colors',
            'hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-indigo-600',
            compact && 'justify-center px-0',
          )}
        >
          <LogOut className="size-[18px] shrink-0" aria-hidden />
          <span className={cn(compact && 'sr-only')}>Logout</span>
        </button>
      </div>
    </aside>
  );
}

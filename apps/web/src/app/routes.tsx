import type { ProjectKind } from '@argus/protocol';
import { type ComponentType, lazy, Suspense, useCallback } from 'react';
import { Navigate, Outlet, Route, Routes, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../components/spinner';
import {
  ChangePasswordForm,
  ForgotPasswordPage,
  LoginPage,
  RedirectIfAuthenticated,
  RegisterPage,
  RequireAuth,
  useAuth,
} from '../features/auth';
import { HomeDashboard } from '../features/dashboard';
import {
  ConnectionBadge,
  ProtocolMismatchBanner,
  sendCleanupBeacon,
  useRealtime,
} from '../features/realtime';
import { useSessions } from '../features/sessions';
import { AppLayout } from '../features/shell';
import { useOrganization } from '../lib/organization';
import { useProjectList } from '../lib/projects/project-list';

// The largest screens load on demand, so a visitor of the landing page does not download the
// automation or settings screens, and a signed-in user does not download the marketing page.
const LandingPage = lazy(() => import('../features/landing').then((m) => ({ default: m.LandingPage })));
// The automation screen comes with the projects feature's picker and save (app/automation-route.tsx).
const AutomationScreen = lazy(() =>
  import('./automation-route').then((m) => ({ default: m.AutomationWithProjects })),
);
// The conversational screen comes with the user's projects, for 'Use as login' (app/conversational-route.tsx).
const ConversationalScreen = lazy(() =>
  import('./conversational-route').then((m) => ({ default: m.ConversationalWithProjects })),
);
const DesignComparisonScreen = lazy(() =>
  import('../features/design-comparison').then((m) => ({ default: m.DesignComparisonScreen })),
);
// Test History with the user's projects and the automation screen's components (app/history-route.tsx).
const HistoryScreen = lazy(() => import('./history-route').then((m) => ({ default: m.HistoryWithProjects })));
const HistoryRunScreen = lazy(() => import('./history-route').then((m) => ({ default: m.HistoryRun })));
// Analytics brings the charting library (uPlot); no other screen downloads it.
const AnalyticsScreen = lazy(() =>
  import('./analytics-route').then((m) => ({ default: m.AnalyticsWithProjects })),
);
// The audit log, for admins and owners, with the caller's projects (app/audit-route.tsx).
const AuditScreen = lazy(() => import('./audit-route').then((m) => ({ default: m.AuditWithProjects })));
// The current organization's members, invitations, tokens and rules, and invitation links (app/organization-route.tsx).
const OrganizationScreen = lazy(() =>
  import('./organization-route').then((m) => ({ default: m.Organization })),
);
const InvitationScreen = lazy(() => import('./organization-route').then((m) => ({ default: m.Invitation })));
const SettingsScreen = lazy(() =>
  import('../features/settings').then((m) => ({ default: m.SettingsScreen })),
);
// A project's page with each suite's repairs and 'Regenerate' and its visual baselines, and the screens they open (app/project-route.tsx).
const ProjectScreen = lazy(() =>
  import('./project-route').then((m) => ({ default: m.ProjectWithSuiteActions })),
);
const SuiteRepairsScreen = lazy(() => import('./project-route').then((m) => ({ default: m.SuiteRepairs })));
const SuiteRegenerateScreen = lazy(() =>
  import('./project-route').then((m) => ({ default: m.SuiteRegenerate })),
);
const SuiteComparisonScreen = lazy(() =>
  import('./project-route').then((m) => ({ default: m.SuiteComparison })),
);
const VisualBaselinesScreen = lazy(() =>
  import('./project-route').then((m) => ({ default: m.ProjectVisualBaselines })),
);
const NewProjectScreen = lazy(() =>
  import('../features/projects').then((m) => ({ default: m.NewProjectScreen })),
);
const ProjectsOfKindScreen = lazy(() =>
  import('../features/projects').then((m) => ({ default: m.ProjectsOfKindScreen })),
);

/**
 * The shell for signed-in screens, fed by the auth state and the user's projects (the sidebar's
 * Projects group; lib/projects, which the projects screens refresh). Only rendered behind RequireAuth.
 */
function AuthenticatedShell() {
  const { user, logout, isAuthenticated } = useAuth();
  const projects = useProjectList(isAuthenticated);
  const { currentId } = useOrganization();
  if (!user) return null;
  return (
    <AppLayout
      user={user}
      onLogout={logout}
      headerAside={<ConnectionBadge />}
      notice={<ProtocolMismatchBanner />}
      projects={projects.data}
    >
      {/* Keyed by the current organization: a switch starts every screen afresh, with its data. */}
      <Outlet key={currentId ?? ''} />
    </AppLayout>
  );
}

function Dashboard() {
  const { user } = useAuth();
  return <HomeDashboard userName={user?.full_name?.trim() || user?.username || ''} />;
}

/** The automation screen, fed by the auth state, the user's socket, their sessions and projects. */
function Automation() {
  const { user, isAuthenticated } = useAuth();
  const realtime = useRealtime();
  const sessions = useSessions();
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <AutomationScreen user={isAuthenticated ? user : null} realtime={realtime} sessions={sessions} />
    </Suspense>
  );
}

/** The conversational screen, fed by the auth state (the beacon's token), the socket and the sessions. */
function Conversational() {
  const { user, token, isAuthenticated } = useAuth();
  const realtime = useRealtime();
  const sessions = useSessions();
  const sendUnloadBeacon = useCallback(
    (sessionId: string | null) => (token ? sendCleanupBeacon({ token, sessionId }) : false),
    [token],
  );
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <ConversationalScreen
        user={isAuthenticated ? user : null}
        realtime={realtime}
        sessions={sessions}
        sendUnloadBeacon={sendUnloadBeacon}
      />
    </Suspense>
  );
}

/** The design comparison screen, fed by the auth state, the user's socket and their sessions. */
function DesignComparison() {
  const { user, isAuthenticated } = useAuth();
  const realtime = useRealtime();
  const sessions = useSessions();
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <DesignComparisonScreen user={isAuthenticated ? user : null} realtime={realtime} sessions={sessions} />
    </Suspense>
  );
}

/** A lazily loaded screen that needs no props, behind a spinner while it loads. */
function Lazy({ screen: Screen }: { screen: ComponentType }) {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <Screen />
    </Suspense>
  );
}

/** Settings: the user's engine, usage and Figma token, with the password change of the auth feature. */
function Settings() {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <SettingsScreen account={<ChangePasswordForm />} />
    </Suspense>
  );
}

/** The create form (/projects/new), with the kind a kind page asked for (?kind=web|mobile|api). */
function NewProject() {
  const [search] = useSearchParams();
  const kind = search.get('kind');
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <NewProjectScreen key={kind} initialKind={kind === 'mobile' || kind === 'api' ? kind : 'web'} />
    </Suspense>
  );
}

/** The user's projects of one kind (/projects/web, /projects/mobile, /projects/api). */
function ProjectsOfKind({ kind }: { kind: ProjectKind }) {
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <ProjectsOfKindScreen kind={kind} />
    </Suspense>
  );
}

/**
 * The route table of docs/PRODUCT.md#routes. `/` is the landing page (a signed-in user goes to /dashboard); every screen
 * but /, /login, /register and /forgot-password is behind the guard and the shared layout; any other
 * path goes to /.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/"
        element={
          <RedirectIfAuthenticated>
            <Suspense fallback={<FullPageSpinner />}>
              <LandingPage isAuthenticated={false} />
            </Suspense>
          </RedirectIfAuthenticated>
        }
      />
      <Route
        path="/login"
        element={
          <RedirectIfAuthenticated>
            <LoginPage />
          </RedirectIfAuthenticated>
        }
      />
      <Route
        path="/register"
        element={
          <RedirectIfAuthenticated>
            <RegisterPage />
          </RedirectIfAuthenticated>
        }
      />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/invitations/:token" element={<Lazy screen={InvitationScreen} />} />

      <Route element={<RequireAuth />}>
        <Route element={<AuthenticatedShell />}>
          <Route path="/dashboard" element={<Dashboard />} />
          <Route path="/automation" element={<Automation />} />
          <Route path="/figma-comparison" element={<DesignComparison />} />
          <Route path="/conversational" element={<Conversational />} />
          <Route path="/history" element={<Lazy screen={HistoryScreen} />} />
          <Route path="/test-history" element={<Lazy screen={HistoryScreen} />} />
          <Route path="/history/runs/:id" element={<Lazy screen={HistoryRunScreen} />} />
          <Route path="/analytics" element={<Lazy screen={AnalyticsScreen} />} />
          <Route path="/settings" element={<Settings />} />
          <Route path="/audit" element={<Lazy screen={AuditScreen} />} />
          <Route path="/organization" element={<Lazy screen={OrganizationScreen} />} />
          <Route path="/projects/web" element={<ProjectsOfKind kind="web" />} />
          <Route path="/projects/mobile" element={<ProjectsOfKind kind="mobile" />} />
          <Route path="/projects/api" element={<ProjectsOfKind kind="api" />} />
          <Route path="/projects/new" element={<NewProject />} />
          <Route path="/projects/:id" element={<Lazy screen={ProjectScreen} />} />
          <Route path="/projects/:id/baselines" element={<Lazy screen={VisualBaselinesScreen} />} />
          <Route
            path="/projects/:id/suites/:suiteId/repairs"
            element={<Lazy screen={SuiteRepairsScreen} />}
          />
          <Route
            path="/projects/:id/suites/:suiteId/regenerate"
            element={<Lazy screen={SuiteRegenerateScreen} />}
          />
          <Route
            path="/projects/:id/suites/:suiteId/comparisons/:comparisonId"
            element={<Lazy screen={SuiteComparisonScreen} />}
          />
        </Route>
      </Route>

      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}

import type { Organization, Role } from '@argus/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import toast from 'react-hot-toast';
import { can } from './can';
import {
  getCurrentOrganizationId,
  onOrganizationLost,
  setCurrentOrganizationId,
} from './current-organization';
import { listOrganizations, ORGANIZATIONS_QUERY_KEY } from './organizations-api';

export interface OrganizationContextValue {
  /** The caller's organizations, the personal one first (empty while they load). */
  organizations: Organization[];
  /** The organization the screens act in; null until the list has loaded. */
  current: Organization | null;
  /** Its id: the chosen one, else the user's own (their personal organization). */
  currentId: string | null;
  /** The caller's role there; known at once in the personal organization (its owner), else once loaded. */
  role: Role | null;
  isLoading: boolean;
  /** Acts in `orgId` from now on: remembered, and every screen's data is fetched again. */
  switchTo: (orgId: string) => void;
  /** Reads the list again (after joining, creating, renaming or leaving one). */
  refresh: () => Promise<void>;
}

const NONE: Organization[] = [];

const OrganizationContext = createContext<OrganizationContextValue | null>(null);

export const LOST_ORGANIZATION_TEXT =
  'You are no longer a member of that organization; showing your personal organization.';

/**
 * The current organization of the signed-in user (docs/ORGANIZATIONS.md): the sidebar's choice,
 * remembered per user, sent by the API client as `X-Argus-Organization`. A choice the server no longer
 * knows (the user was removed) falls back to the personal organization, said once.
 */
export function OrganizationProvider({ userId, children }: { userId: string | null; children?: ReactNode }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(() => getCurrentOrganizationId(userId));
  const list = useQuery({
    queryKey: ORGANIZATIONS_QUERY_KEY,
    queryFn: ({ signal }) => listOrganizations(signal),
    enabled: Boolean(userId),
  });

  // Another user signed in (or out) in this tab: their own choice.
  useEffect(() => setChosen(getCurrentOrganizationId(userId)), [userId]);

  const queryClientRef = useRef(queryClient);
  queryClientRef.current = queryClient;
  const fallBack = useCallback(() => {
    setChosen(null);
    // Everything shown was the lost organization's: read it again in the personal one.
    void queryClientRef.current.resetQueries();
  }, []);

  useEffect(
    () =>
      onOrganizationLost(() => {
        toast.error(LOST_ORGANIZATION_TEXT, { id: 'organization-lost' });
        fallBack();
      }),
    [fallBack],
  );

  const organizations = list.data ?? NONE;
  const currentId = chosen ?? userId;
  const current = organizations.find((org) => org.id === currentId) ?? null;

  // The list no longer holds the choice (removed while away): the personal one, said once.
  useEffect(() => {
    if (!userId || !chosen || !list.data || list.data.some((org) => org.id === chosen)) return;
    setCurrentOrganizationId(userId, null);
    toast.error(LOST_ORGANIZATION_TEXT, { id: 'organization-lost' });
    fallBack();
  }, [userId, chosen, list.data, fallBack]);

  const switchTo = useCallback(
    (orgId: string) => {
      if (!userId) return;
      setCurrentOrganizationId(userId, orgId);
      setChosen(orgId === userId ? null : orgId);
      // The header changes at once (it is read from storage by every call); the screens remount
      // under the new organization's key and their queries start afresh.
      void queryClientRef.current.resetQueries();
    },
    [userId],
  );

  const refresh = useCallback(async () => {
    await queryClientRef.current.invalidateQueries({ queryKey: ORGANIZATIONS_QUERY_KEY });
  }, []);

  // In the personal organization the user is its owner, known before the list arrives.
  const role: Role | null = current?.role ?? (userId && currentId === userId ? 'owner' : null);

  const value = useMemo<OrganizationContextValue>(
    () => ({
      organizations,
      current,
      currentId: userId ? currentId : null,
      role,
      isLoading: list.isPending && Boolean(userId),
      switchTo,
      refresh,
    }),
    [organizations, current, currentId, role, list.isPending, userId, switchTo, refresh],
  );
  return <OrganizationContext.Provider value={value}>{children}</OrganizationContext.Provider>;
}

export function useOrganization(): OrganizationContextValue {
  const value = useContext(OrganizationContext);
  if (!value) throw new Error('useOrganization must be used inside <OrganizationProvider>');
  return value;
}

/**
 * Whether the caller may call `what` (a route, `'PUT /api/projects/:id'`, or a socket message type) in the current organization:
 * the one test behind every Run, Edit and Delete control, read from the permission table.
 */
export function useCan(what: string): boolean {
  return can(useOrganization().role, what);
}

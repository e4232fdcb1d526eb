import {
  BarChart3,
  Bot,
  Building2,
  CirclePlus,
  Globe,
  History,
  House,
  type LucideIcon,
  MessagesSquare,
  PenTool,
  ScrollText,
  Server,
  Settings,
  Smartphone,
} from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** The route (permission table's `METHOD /path`) the page is for: shown only to roles allowed it. */
  needs?: string;
}

/** docs/PRODUCT.md#authenticated-shell: the sidebar's main items, in order. */
export const MAIN_NAV: NavItem[] = [
  { label: 'Home', to: '/dashboard', icon: House },
  { label: 'Conversational Mode', to: '/conversational', icon: MessagesSquare },
  { label: 'Automation Mode', to: '/automation', icon: Bot },
  { label: 'Analytics', to: '/analytics', icon: BarChart3 },
  { label: 'Figma Comparison', to: '/figma-comparison', icon: PenTool },
  { label: 'Test History', to: '/history', icon: History },
  { label: 'Settings', to: '/settings', icon: Settings },
  // The current organization: its members, invitations, tokens and sign-in rules.
  { label: 'Organization', to: '/organization', icon: Building2 },
  // The organization's audit log: admins and owners read it (others are told so on the screen).
  { label: 'Audit Log', to: '/audit', icon: ScrollText },
];

/** docs/PRODUCT.md#authenticated-shell: the Projects group. */
export const PROJECT_NAV: NavItem[] = [
  { label: 'Web Application', to: '/projects/web', icon: Globe },
  { label: 'Mobile App', to: '/projects/mobile', icon: Smartphone },
  { label: 'API Service', to: '/projects/api', icon: Server },
  { label: 'Add New Project', to: '/projects/new', icon: CirclePlus, needs: 'POST /api/projects' },
];

/** A project's page. */
export const projectPath = (id: string) => `/projects/${encodeURIComponent(id)}`;

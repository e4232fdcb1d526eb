import {
  BarChart3,
  Bot,
  CirclePlus,
  Globe,
  History,
  House,
  type LucideIcon,
  MessagesSquare,
  PenTool,
  Server,
  Settings,
  Smartphone,
} from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
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
];

/** docs/PRODUCT.md#authenticated-shell: the Projects group. */
export const PROJECT_NAV: NavItem[] = [
  { label: 'Web Application', to: '/projects/web', icon: Globe },
  { label: 'Mobile App', to: '/projects/mobile', icon: Smartphone },
  { label: 'API Service', to: '/projects/api', icon: Server },
  { label: 'Add New Project', to: '/projects/new', icon: CirclePlus },
];

/** A project's page. */
export const projectPath = (id: string) => `/projects/${encodeURIComponent(id)}`;

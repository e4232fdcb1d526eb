export { AppLayout, type AppLayoutProps, SIDEBAR_BREAKPOINT_PX } from './app-layout';
export { MAIN_NAV, type NavItem, PROJECT_NAV } from './navigation';
export { SIDEBAR_ID, Sidebar } from './sidebar';

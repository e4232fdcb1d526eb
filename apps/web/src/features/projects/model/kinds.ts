import { MOBILE_VIEWPORT, PROJECT_KINDS, type ProjectKind } from '@argus/protocol';

/** What each starting kind of project is called and how it is tested (the sidebar's Projects group). */
export const KIND_TEXT: Record<
  ProjectKind,
  {
    label: string;
    plural: string;
    short: string;
    description: string;
    path: string;
    /** The create button's words. */
    create: string;
    /** The kind page's empty state. */
    none: string;
  }
> = {
  web: {
    label: 'Web application',
    plural: 'Web applications',
    short: 'Web',
    description: 'Sites tested in a desktop browser.',
    path: '/projects/web',
    create: 'New web application',
    none: 'No web applications yet',
  },
  mobile: {
    label: 'Mobile app',
    plural: 'Mobile apps',
    short: 'Mobile',
    description: `Sites whose tests run in a phone-sized browser (${MOBILE_VIEWPORT.width} × ${MOBILE_VIEWPORT.height}).`,
    path: '/projects/mobile',
    create: 'New mobile app',
    none: 'No mobile apps yet',
  },
  api: {
    label: 'API service',
    plural: 'API services',
    short: 'API',
    description: 'HTTP APIs, kept with their environments and variables.',
    path: '/projects/api',
    create: 'New API service',
    none: 'No API services yet',
  },
};

/** Said wherever an API project shows: it can be kept, not tested. */
export const API_NOT_TESTABLE =
  'Argus cannot test API services yet: API projects are kept with their environments and variables, but not run.';

/** The kind a `?kind=` query names, else web. */
export function kindFrom(value: string | null | undefined): ProjectKind {
  return (PROJECT_KINDS as readonly string[]).includes(value ?? '') ? (value as ProjectKind) : 'web';
}

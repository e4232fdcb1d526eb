// Links drawn as the small buttons of components/small-button.tsx: the trace opens in a new tab and
// downloads by its signed link, so they are anchors, not buttons.

export const LINK_BUTTON =
  'inline-flex items-center justify-center gap-1.5 rounded-lg px-3 py-1.5 text-xs font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

export const PRIMARY_LINK = `${LINK_BUTTON} bg-indigo-600 text-white shadow-sm hover:bg-indigo-500`;

export const SECONDARY_LINK = `${LINK_BUTTON} bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50`;

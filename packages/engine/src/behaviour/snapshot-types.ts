/**
 * A read-only picture of the page's state, made to be compared with another one (`diffSnapshots`):
 * the items it lists, its controls, its short texts, where it is, and what it complained about.
 */
export interface PageSnapshot {
  url: string;
  title: string;
  /** Visible item containers (li, table body rows, articles, role=listitem/row), in page order. */
  items: SnapshotItem[];
  /** Visible controls: buttons, links, fields, checkboxes, tabs… */
  controls: SnapshotControl[];
  /** Visible short texts (a phrase: an element with its own text, grown to its inline parent). */
  texts: SnapshotText[];
  /** Controls inside visible items that are hidden until the item is hovered (a delete ×). */
  hiddenControls: SnapshotControl[];
  /** The visible forms, by the index controls name in `form`. */
  forms: SnapshotForm[];
  /** Names (or texts) of the open dialogs. */
  dialogs: string[];
  /** Visible elements per role, for exact counts (listitem, row, checkbox…). */
  counts: Record<string, number>;
  /** The focused control, if it is a text field. */
  focused: { label: string; value: string } | null;
  consoleErrors: number;
  failedRequests: number;
}

export interface SnapshotItem {
  /** `role:label`, with `#n` for repeats: stable while the item keeps its label. */
  key: string;
  role: string;
  /** The item's own title: its first text that is not a control's or a number. */
  label: string;
  /** Its whole text (controls' names excluded), at most 200 characters. */
  text: string;
  /** Class tokens and aria-* states that mark state (`completed`, `selected`, `aria-pressed`). */
  states: string[];
  /** Whether its first checkbox is checked; null when it has none. */
  checked: boolean | null;
}

export interface SnapshotControl {
  /** `role:name@item`, with `#n` for repeats. */
  key: string;
  role: string;
  /** Its accessible name as far as the page tells (aria-label, label, text, value, placeholder). */
  name: string;
  /** The label of the item it sits in, if any. */
  item: string | null;
  checked: boolean | null;
  /** A field's value. */
  value: string | null;
  states: string[];
  disabled: boolean;
  /** For links: the href, resolved. */
  href: string | null;
  /** An input's type, else the tag name (button, select, textarea, a…). */
  type: string;
  /** The index of its form in `forms`, if it sits in one. */
  form: number | null;
  /** A select's option labels. */
  options: string[];
  /** A link that opens elsewhere: a new window, a download, another origin or scheme. */
  leaves: boolean;
  required: boolean;
  /**
   * For a button with no name outside any item (an icon beside a heading): the text of the smallest
   * block around it that has some (at most 80 characters), by which a step can find it
   * (`Click the button in "…"`); else null.
   */
  near: string | null;
}

export interface SnapshotForm {
  /** Where it sends its data, resolved. */
  action: string;
  method: string;
  /** Whether `action` is on the page's own origin. */
  sameOrigin: boolean;
  /** Holds a password or payment card field. */
  sensitive: boolean;
  /** Its submit button's name, if it has one. */
  submit: string | null;
}

export interface SnapshotText {
  /** The element's place in the page (relative to its item when it sits in one). */
  key: string;
  text: string;
  /** Its parent's text when that is short and says more ("Subtotal $178.00" for "$178.00"). */
  context: string | null;
  item: string | null;
  states: string[];
  /**
   * It names what sits beside it rather than saying something: a column header, a field's label, a
   * legend, a term of a definition list, or a phrase ending in a colon ("Show:"). Such texts come and
   * go with the structure they caption (a table's headers with its first row).
   */
  caption?: boolean;
}

import type { ElementKey } from '@argus/protocol';
import type { PageControl } from './page-controls';

/**
 * The control a failed step's element is still recognisable as by its stable attributes
 * (docs/REPAIRS.md#the-element-a-step-acted-on): a redesign relabelled it, the attributes stayed.
 */

const KEY_WORDS: Record<keyof ElementKey, string> = {
  testid: 'test id',
  id: 'id',
  name: 'field name',
  href: 'link address',
  action: 'form address',
  landmark: 'landmark',
};

/**
 * The one control on the page with a stable attribute the step's element had when the case last
 * passed (a test id, else an id, else a form field name, else the address a link or a submit button
 * leads to), and the signal saying so; null when none, or when more than one control has it (a radio
 * group's shared name, a test id repeated per item, a home link beside the nav's), unless only one of
 * them sits in the landmark the element sat in.
 */
export function keyedControl(
  controls: PageControl[],
  last: ElementKey | null,
): { control: PageControl; signal: string } | null {
  if (!last) return null;
  for (const by of ['testid', 'id', 'name', 'href', 'action'] as const) {
    const value = last[by];
    if (!value) continue;
    const holders = controls.filter((c) => c.key?.[by] === value);
    const signal = `the same ${KEY_WORDS[by]} as when the case last passed ("${value}")`;
    if (holders.length === 1) return { control: holders[0], signal };
    // Two that lead alike (the nav's "Entries" and a filter's "Every kind"): the one in the same landmark.
    const within = last.landmark ? holders.filter((c) => c.key?.landmark === last.landmark) : [];
    if (within.length === 1)
      return { control: within[0], signal: `${signal}, in the ${last.landmark} as then` };
  }
  return null;
}

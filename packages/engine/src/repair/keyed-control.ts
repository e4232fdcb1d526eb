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
};

/**
 * The one control on the page with a stable attribute the step's element had when the case last
 * passed (a test id, else an id, else a form field name, else the address a link leads to), and the
 * signal saying so; null when none, or when more than one control has it (a radio group's shared name,
 * a test id repeated per item, a home link beside the nav's).
 */
export function keyedControl(
  controls: PageControl[],
  last: ElementKey | null,
): { control: PageControl; signal: string } | null {
  if (!last) return null;
  for (const by of ['testid', 'id', 'name', 'href'] as const) {
    const value = last[by];
    if (!value) continue;
    const holders = controls.filter((c) => c.key?.[by] === value);
    if (holders.length === 1)
      return {
        control: holders[0],
        signal: `the same ${KEY_WORDS[by]} as when the case last passed ("${value}")`,
      };
  }
  return null;
}

import type { StepOf, StepVerb, TargetRole } from '@argus/protocol';
import { type Scope, str } from './code-text';

/** What a verb's code is written with: the lines so far, and the support helpers it calls. */
export interface StepCodeKit {
  scope: Scope;
  /** Lines of code of the step (without its `test.step` wrapper). */
  code: string[];
  /** Names support helpers the code calls (imported from `./support/argus`). */
  h: (...names: string[]) => void;
  /** A string argument as code (`{{NAME}}` read from the environment). */
  s: (text: string) => string;
  /** The region's const (`area`), declared first, or `page`. */
  rootOf: (region: string | undefined, blocks?: boolean) => string;
  /** `target(page, …)` with its options written only when they differ from a click's. */
  targetCall: (name: string, kind: string, role?: TargetRole, root?: string) => string;
  /** `field(page, …)`. */
  fieldCall: (name: string) => string;
}

/** Writes the code of one verb's step into `kit.code`; answers why it cannot (a TODO), if it cannot. */
export type StepCode<V extends StepVerb> = (step: StepOf<V>, kit: StepCodeKit) => string | undefined;

export function stepCodeKit(scope: Scope): StepCodeKit {
  const code: string[] = [];
  const h = (...names: string[]) => {
    for (const n of names) scope.helpers.add(n);
  };
  const s = (text: string) => str(text, scope);
  return {
    scope,
    code,
    h,
    s,
    rootOf: (region, blocks = false) => {
      if (region === undefined) return 'page';
      h('region');
      code.push(`const area = await region(page, ${s(region)}${blocks ? ', { blocks: true }' : ''});`);
      return 'area';
    },
    targetCall: (name, kind, role, root = 'page') => {
      h('target');
      const options = [
        kind === 'click' ? '' : `kind: '${kind}'`,
        role ? `role: '${role}'` : '',
        root === 'page' ? '' : `within: ${root}`,
      ].filter(Boolean);
      return `await target(page, ${s(name)}${options.length ? `, { ${options.join(', ')} }` : ''})`;
    },
    fieldCall: (name) => {
      h('field');
      return `await field(page, ${s(name)})`;
    },
  };
}

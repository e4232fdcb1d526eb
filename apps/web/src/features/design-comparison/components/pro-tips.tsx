import { Lightbulb } from 'lucide-react';
import { Panel } from '../../../components/panel';

const TIPS = [
  'Export the design at the width of the viewport you compare (1920 px for desktop) for the most exact boxes.',
  'Compare one frame at a time: link to the frame itself (a Figma link with node-id), not the whole page.',
  'Wait for fonts and images: a page still loading compares as missing content.',
  'Start with the high-priority issues; the CSS fixes name the element and the value the design uses.',
];

/** A Pro Tips card (docs/PRODUCT.md#comparison-results). */
export function ProTips() {
  return (
    <Panel title="Pro Tips" icon={Lightbulb} testId="pro-tips">
      <ul className="space-y-2.5 text-sm text-slate-600">
        {TIPS.map((tip) => (
          <li key={tip} className="flex gap-2">
            <span className="mt-2 size-1.5 shrink-0 rounded-full bg-indigo-400" aria-hidden />
            <span>{tip}</span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

import { BarChart3, Bot, type LucideIcon, MessagesSquare } from 'lucide-react';

export interface ModeCard {
  title: string;
  description: string;
  to: string;
  cta: string;
  icon: LucideIcon;
  accent: string;
  points: string[];
  badge?: string;
}

/** The home dashboard's three mode cards (docs/PRODUCT.md#home-dashboard). */
export const MODE_CARDS: ModeCard[] = [
  {
    title: 'Conversational Mode',
    description: 'Tell an AI assistant what to do on any website and watch it browse in a live video stream.',
    to: '/conversational',
    cta: 'Start a conversation',
    icon: MessagesSquare,
    accent: 'bg-violet-50 text-violet-600 ring-violet-100',
    points: ['Natural-language instructions', 'Live browser video', 'Step-by-step narration'],
  },
  {
    title: 'Automation Mode',
    description:
      'Give a URL and let AI generate a complete test suite, then run it with live progress and screenshots.',
    to: '/automation',
    cta: 'Start automating',
    icon: Bot,
    accent: 'bg-indigo-50 text-indigo-600 ring-indigo-100',
    points: ['AI-generated test cases', 'Real-time step logs', 'Pass/fail results you can export'],
  },
  {
    title: 'Analytics',
    description: 'See pass rates, trends and flaky tests across every run your team makes.',
    to: '/analytics',
    cta: 'View analytics',
    icon: BarChart3,
    accent: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
    points: ['Pass-rate trends', 'Slowest and flakiest tests', 'Team-wide insights'],
  },
];

/** The marketing claims (docs/PRODUCT.md#landing-page). */
export const HEADLINE_STATS = [
  { value: '10K+', label: 'Active users' },
  { value: '500K+', label: 'Tests run' },
  { value: '99.9%', label: 'Success rate' },
  { value: '99.99%', label: 'Uptime' },
];

export const TESTIMONIALS = [
  {
    quote:
      'We went from a handful of brittle scripts to full regression coverage in a week. The AI-generated cases caught two checkout bugs before release.',
    name: 'Sarah Chen',
    role: 'QA Lead, Finloop',
  },
  {
    quote:
      'Conversational mode is how our product managers check flows now — they just describe what to try and watch it happen.',
    name: 'Marcus Johnson',
    role: 'Engineering Manager, Shopwise',
  },
  {
    quote:
      'Comparing the live site against our Figma designs used to take a day per release. Now it is part of every pull request.',
    name: 'Priya Patel',
    role: 'Product Designer, Healthbridge',
  },
];

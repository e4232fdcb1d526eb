import {
  ChartColumn,
  History,
  LayoutDashboard,
  type LucideIcon,
  MessageSquareText,
  MonitorPlay,
  PenTool,
  Plug,
  ScanEye,
  Sparkles,
  WandSparkles,
  Workflow,
} from 'lucide-react';

/** docs/PRODUCT.md#landing-page: the hero's feature highlights rotate every 3.5 s. */
export const HIGHLIGHT_ROTATION_MS = 3500;

export interface FeatureHighlight {
  id: 'generation' | 'natural-language' | 'visual' | 'orchestration';
  title: string;
  description: string;
  icon: LucideIcon;
}

/** docs/PRODUCT.md#landing-page: the four rotating feature highlights, each with a Coming Soon button. */
export const FEATURE_HIGHLIGHTS: readonly FeatureHighlight[] = [
  {
    id: 'generation',
    title: 'AI-Powered Test Generation',
    description:
      'Point Argus at a URL and it explores your app, then writes a complete, prioritised test suite in seconds.',
    icon: Sparkles,
  },
  {
    id: 'natural-language',
    title: 'Natural Language Testing',
    description:
      'Describe what to check in plain English. No selectors, no scripts: the AI turns intent into steps.',
    icon: MessageSquareText,
  },
  {
    id: 'visual',
    title: 'Real-Time Visual Monitoring',
    description:
      'Watch every run live with a streamed browser, step-by-step logs and screenshots of each action.',
    icon: ScanEye,
  },
  {
    id: 'orchestration',
    title: 'Smart Test Orchestration',
    description:
      'Run suites in parallel, stop them at any moment and keep a full history of every execution.',
    icon: Workflow,
  },
];

export interface FeatureCard {
  title: string;
  description: string;
  href: string;
  icon: LucideIcon;
}

/** docs/PRODUCT.md#landing-page: the feature-card grid; each 'Get Started' leads to its own screen. */
export const FEATURE_CARDS: readonly FeatureCard[] = [
  {
    title: 'Test Automation',
    description: 'Generate test cases from a URL or a command and run them with live progress and results.',
    href: '/automation',
    icon: WandSparkles,
  },
  {
    title: 'Conversational Browsing',
    description: 'Chat with an AI assistant that drives a real browser and streams it to you as live video.',
    href: '/conversational',
    icon: MonitorPlay,
  },
  {
    title: 'Design Comparison',
    description:
      'Compare a Figma file or an image with your live site: similarity scores, issues and CSS fixes.',
    href: '/figma-comparison',
    icon: PenTool,
  },
  {
    title: 'Analytics & Insights',
    description: 'Follow pass rates, flaky tests and execution times across your projects and releases.',
    href: '/analytics',
    icon: ChartColumn,
  },
  {
    title: 'Test History',
    description: 'Every run kept with its steps, logs and screenshots, ready to compare and export.',
    href: '/history',
    icon: History,
  },
  {
    title: 'Team Dashboard',
    description: 'One place for your sessions, recent runs and the health of everything you ship.',
    href: '/dashboard',
    icon: LayoutDashboard,
  },
];

/** docs/PRODUCT.md#landing-page: the marketing claims, exactly. */
export const STATS: readonly { value: string; label: string }[] = [
  { value: '10K+', label: 'Active users' },
  { value: '500K+', label: 'Tests executed' },
  { value: '99.9%', label: 'Success rate' },
  { value: '99.99%', label: 'Uptime' },
];

export interface Testimonial {
  quote: string;
  name: string;
  role: string;
  initials: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    quote:
      'We replaced weeks of hand-written end-to-end scripts with suites Argus generated in an afternoon. Our regression cycle went from two days to under an hour.',
    name: 'Sarah Chen',
    role: 'QA Lead, Fintech startup',
    initials: 'SC',
  },
  {
    quote:
      'Being able to just tell it "check the checkout with an expired card" and watch the browser do it live is a game changer for our product team.',
    name: 'Marcus Rodriguez',
    role: 'Product Manager, E-commerce platform',
    initials: 'MR',
  },
  {
    quote:
      'The design comparison caught spacing and colour drift our reviewers had missed for months, and it handed us the CSS fixes too.',
    name: 'Priya Patel',
    role: 'Frontend Engineer, SaaS company',
    initials: 'PP',
  },
];

export interface Step {
  title: string;
  description: string;
  icon: LucideIcon;
}

/** 'How it Works' (docs/PRODUCT.md#landing-page): connect, generate, execute and monitor. */
export const STEPS: readonly Step[] = [
  {
    title: 'Connect your application',
    description: 'Enter the URL of your web app, staging site or preview deployment. Nothing to install.',
    icon: Plug,
  },
  {
    title: 'AI generates your test suite',
    description: 'Argus explores your pages and writes test cases with clear steps and expected results.',
    icon: Sparkles,
  },
  {
    title: 'Execute and monitor',
    description:
      'Run everything with one click and follow each step live, with screenshots, logs and results.',
    icon: MonitorPlay,
  },
];

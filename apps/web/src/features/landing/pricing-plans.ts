/** A pricing plan (name, price, period, description, features, badge, popular) with its values (docs/PRODUCT.md#pricing). */
export interface PricingPlan {
  name: string;
  /** Display price, e.g. '$99' or 'Custom'. */
  price: string;
  /** Shown after the price, e.g. '/month'; empty when there is none. */
  period: string;
  description: string;
  features: string[];
  badge: string | null;
  popular: boolean;
  /** Where the plan's button leads: an app route or a mailto: link. */
  cta: { label: string; href: string };
}

export const FREE_TRIAL_DAYS = 14;
export const SALES_EMAIL = 'sales@argus.dev';

export const PRICING_PLANS: readonly PricingPlan[] = [
  {
    name: 'Basic',
    price: '$99',
    period: '/month',
    description: 'For small teams getting started with AI-driven QA.',
    features: [
      '500 test executions a month',
      'Up to 5 team members',
      '30-day test history',
      'Email support',
      'Basic analytics',
    ],
    badge: null,
    popular: false,
    cta: { label: 'Start Free Trial', href: '/register' },
  },
  {
    name: 'Pro',
    price: '$499',
    period: '/month',
    description: 'For growing teams that test on every release.',
    features: [
      'Unlimited test executions',
      'Unlimited team members',
      'Full API access',
      'Custom AI models',
      'Priority support',
    ],
    badge: 'Most Popular',
    popular: true,
    cta: { label: 'Start Free Trial', href: '/register' },
  },
  {
    name: 'Pay-Per-Test',
    price: '$0.10',
    period: '/test',
    description: 'Pay only for the tests you run. No monthly commitment.',
    features: [
      'No monthly minimum',
      'AI test generation included',
      'Live runs with screenshots and logs',
      'Scale up or down any time',
    ],
    badge: 'Startup Friendly',
    popular: false,
    cta: { label: 'Get Started', href: '/register' },
  },
  {
    name: 'Enterprise',
    price: 'Custom',
    period: '',
    description: 'For organisations with custom security, scale and support needs.',
    features: [
      'Everything in Pro',
      'Self-hosted or dedicated deployment',
      'SSO and audit logs',
      'Custom SLAs and onboarding',
      'Dedicated success manager',
    ],
    badge: null,
    popular: false,
    cta: { label: 'Contact Sales', href: `mailto:${SALES_EMAIL}?subject=Argus%20Enterprise` },
  },
];

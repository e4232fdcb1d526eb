import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { FREE_TRIAL_DAYS, PRICING_PLANS, type PricingPlan } from '../pricing-plans';
import { SectionHeading } from './section-heading';

export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 bg-slate-50 py-24 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple, transparent pricing">
          Start with a {FREE_TRIAL_DAYS}-day free trial, no credit card required. Upgrade, downgrade or cancel
          at any time.
        </SectionHeading>

        <ul className="mt-16 grid items-stretch gap-x-6 gap-y-8 md:grid-cols-2 xl:grid-cols-4">
          {PRICING_PLANS.map((plan) => (
            <li key={plan.name} className="flex">
              <PlanCard plan={plan} />
            </li>
          ))}
        </ul>

        <p className="mt-10 text-center text-sm text-slate-500">
          All plans include AI test generation, live browser sessions and design comparison. Prices in USD.
        </p>
      </div>
    </section>
  );
}

function PlanCard({ plan }: { plan: PricingPlan }) {
  const headingId = `plan-${plan.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const popular = plan.popular;
  const ctaClass = `mt-8 block rounded-lg px-4 py-2.5 text-center text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${
    popular
      ? 'bg-indigo-600 text-white shadow-md shadow-indigo-600/30 hover:bg-indigo-500'
      : 'bg-white text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 hover:ring-indigo-300'
  }`;

  return (
    <article
      aria-labelledby={headingId}
      data-popular={popular ? 'true' : undefined}
      className={`relative flex w-full flex-col rounded-2xl bg-white p-7 ${
        popular
          ? 'shadow-2xl shadow-indigo-900/15 ring-2 ring-indigo-600 xl:-my-3 xl:py-10'
          : 'shadow-sm ring-1 ring-slate-200'
      }`}
    >
      {plan.badge && (
        <span
          className={`absolute -top-3 left-7 rounded-full px-3 py-1 text-xs font-semibold ${
            popular
              ? 'bg-linear-to-r from-indigo-600 to-violet-600 text-white shadow'
              : 'bg-emerald-50 text-emerald-700 ring-1 ring-emerald-200'
          }`}
        >
          {plan.badge}
        </span>
      )}
      <h3
        id={headingId}
        className={`text-lg font-semibold ${popular ? 'text-indigo-700' : 'text-slate-900'}`}
      >
        {plan.name}
      </h3>
      <p className="mt-2 text-sm text-slate-600 md:min-h-15">{plan.description}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-extrabold tracking-tight text-slate-900">{plan.price}</span>
        {plan.period && <span className="text-sm font-medium text-slate-500">{plan.period}</span>}
      </p>

      {plan.cta.href.startsWith('mailto:') ? (
        <a href={plan.cta.href} className={ctaClass}>
          {plan.cta.label}
        </a>
      ) : (
        <Link to={plan.cta.href} className={ctaClass} aria-label={`${plan.cta.label} with ${plan.name}`}>
          {plan.cta.label}
        </Link>
      )}

      <ul className="mt-8 space-y-3 border-t border-slate-100 pt-6 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <Check className="mt-0.5 size-4 shrink-0 text-indigo-600" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </article>
  );
}

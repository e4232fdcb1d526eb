import { ArrowRight, Quote } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../lib/cn';
import { HEADLINE_STATS, MODE_CARDS, TESTIMONIALS } from './content';

function greeting(date: Date): string {
  const hour = date.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** The home dashboard (docs/PRODUCT.md#home-dashboard): three mode cards, four headline stats, three testimonials. */
export function HomeDashboard({ userName }: { userName: string }) {
  return (
    <div className="mx-auto max-w-6xl space-y-10">
      <section>
        <p className="text-sm font-medium text-indigo-600">{greeting(new Date())}</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
          Welcome back, {userName}
        </h1>
        <p className="mt-2 max-w-2xl text-slate-500">
          Choose how you want to test today. Every run happens in a real browser on your own infrastructure.
        </p>
      </section>

      <section aria-labelledby="modes-heading">
        <h2 id="modes-heading" className="sr-only">
          Testing modes
        </h2>
        <div className="grid gap-5 md:grid-cols-3">
          {MODE_CARDS.map((card) => {
            const Icon = card.icon;
            return (
              <Link
                key={card.to}
                to={card.to}
                className="group relative flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-xs transition hover:-translate-y-0.5 hover:border-indigo-200 hover:shadow-lg hover:shadow-indigo-500/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                data-testid="mode-card"
              >
                <div className="flex items-start justify-between">
                  <span
                    className={cn('flex size-11 items-center justify-center rounded-xl ring-1', card.accent)}
                  >
                    <Icon className="size-5" aria-hidden />
                  </span>
                  {card.badge && (
                    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600">
                      {card.badge}
                    </span>
                  )}
                </div>
                <h3 className="mt-5 text-lg font-semibold text-slate-900">{card.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-500">{card.description}</p>
                <ul className="mt-4 space-y-1.5 text-sm text-slate-600">
                  {card.points.map((point) => (
                    <li key={point} className="flex items-center gap-2">
                      <span className="size-1.5 rounded-full bg-indigo-400" aria-hidden />
                      {point}
                    </li>
                  ))}
                </ul>
                <span className="mt-6 inline-flex items-center gap-1.5 pt-2 text-sm font-semibold text-indigo-600 md:mt-auto">
                  {card.cta}
                  <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden />
                </span>
              </Link>
            );
          })}
        </div>
      </section>

      <section
        aria-labelledby="stats-heading"
        className="overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-600 px-6 py-8 text-white shadow-lg shadow-indigo-600/10 sm:px-10"
      >
        <h2 id="stats-heading" className="text-sm font-medium text-indigo-100">
          Trusted by QA teams everywhere
        </h2>
        <dl className="mt-6 grid grid-cols-2 gap-x-6 gap-y-8 lg:grid-cols-4">
          {HEADLINE_STATS.map((stat) => (
            <div key={stat.label} data-testid="headline-stat">
              <dt className="text-sm text-indigo-100">{stat.label}</dt>
              <dd className="mt-1 text-3xl font-semibold tracking-tight">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="testimonials-heading">
        <h2 id="testimonials-heading" className="text-lg font-semibold text-slate-900">
          What teams are saying
        </h2>
        <div className="mt-5 grid gap-5 md:grid-cols-3">
          {TESTIMONIALS.map((item) => (
            <figure
              key={item.name}
              className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-xs"
              data-testid="testimonial"
            >
              <Quote className="size-6 text-indigo-200" aria-hidden />
              <blockquote className="mt-3 flex-1 text-sm leading-relaxed text-slate-600">
                “{item.quote}”
              </blockquote>
              <figcaption className="mt-5 flex items-center gap-3">
                <span className="flex size-9 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-600">
                  {item.name
                    .split(' ')
                    .map((part) => part[0])
                    .join('')}
                </span>
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{item.name}</span>
                  <span className="block text-xs text-slate-500">{item.role}</span>
                </span>
              </figcaption>
            </figure>
          ))}
        </div>
      </section>
    </div>
  );
}

import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { FEATURE_CARDS } from '../content';
import { SectionHeading } from './section-heading';

export function FeatureGrid() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 bg-white py-24 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to ship quality software"
        >
          One platform for AI-generated tests, live browser sessions and design checks, without writing a
          single selector.
        </SectionHeading>

        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURE_CARDS.map((card) => {
            const Icon = card.icon;
            return (
              <li
                key={card.href}
                className="group relative flex flex-col rounded-2xl bg-white p-7 shadow-sm ring-1 ring-slate-200 transition hover:-translate-y-0.5 hover:shadow-xl hover:shadow-indigo-900/5 hover:ring-indigo-200"
              >
                <span className="flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100 transition group-hover:bg-indigo-600 group-hover:text-white">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-lg font-semibold text-slate-900">{card.title}</h3>
                <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-600">{card.description}</p>
                <Link
                  to={card.href}
                  aria-label={`Get Started with ${card.title}`}
                  className="mt-6 inline-flex w-fit items-center gap-1.5 text-sm font-semibold text-indigo-600 transition hover:gap-2.5 hover:text-indigo-500"
                >
                  Get Started
                  <ArrowRight className="size-4" aria-hidden="true" />
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

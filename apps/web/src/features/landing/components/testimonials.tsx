import { Quote, Star } from 'lucide-react';
import { TESTIMONIALS } from '../content';
import { SectionHeading } from './section-heading';

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="bg-white py-24 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="testimonials-title" eyebrow="Testimonials" title="Loved by QA and product teams">
          Teams in our early-access programme are already shipping faster with fewer regressions.
        </SectionHeading>

        <ul className="mt-16 grid gap-6 lg:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name}>
              <figure className="relative flex h-full flex-col rounded-2xl bg-slate-50 p-7 ring-1 ring-slate-200">
                <Quote className="absolute top-6 right-6 size-8 text-indigo-100" aria-hidden="true" />
                <div className="flex gap-0.5 text-amber-400" role="img" aria-label="Rated 5 out of 5">
                  {[0, 1, 2, 3, 4].map((n) => (
                    <Star key={n} className="size-4 fill-current" aria-hidden="true" />
                  ))}
                </div>
                <blockquote className="mt-5 flex-1 text-base leading-relaxed text-slate-700">
                  <p>“{t.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3 border-t border-slate-200 pt-5">
                  <span
                    aria-hidden="true"
                    className="flex size-10 items-center justify-center rounded-full bg-linear-to-br from-indigo-500 to-violet-600 text-sm font-semibold text-white"
                  >
                    {t.initials}
                  </span>
                  <span>
                    <span className="block text-sm font-semibold text-slate-900">{t.name}</span>
                    <span className="block text-sm text-slate-500">{t.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import { STEPS } from '../content';
import { SectionHeading } from './section-heading';

export function HowItWorks() {
  return (
    <section
      id="how-it-works"
      aria-labelledby="how-title"
      className="scroll-mt-20 bg-slate-50 py-24 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="how-title" eyebrow="How it Works" title="From URL to results in three steps">
          No scripts to maintain and no framework to learn. If you can describe it, Argus can test it.
        </SectionHeading>

        <div className="relative mt-16">
          <div
            aria-hidden="true"
            className="absolute top-8 right-[16%] left-[16%] hidden h-px bg-linear-to-r from-indigo-200 via-violet-300 to-indigo-200 md:block"
          />
          <ol className="relative grid gap-10 md:grid-cols-3 md:gap-8">
            {STEPS.map((step, i) => {
              const Icon = step.icon;
              return (
                <li key={step.title} className="relative flex flex-col items-center text-center">
                  <span className="relative flex size-16 items-center justify-center rounded-2xl bg-white text-indigo-600 shadow-md ring-1 ring-slate-200">
                    <Icon className="size-7" aria-hidden="true" />
                    <span className="absolute -top-2 -right-2 flex size-6 items-center justify-center rounded-full bg-linear-to-br from-indigo-600 to-violet-600 text-xs font-bold text-white shadow">
                      {i + 1}
                    </span>
                  </span>
                  <h3 className="mt-6 text-lg font-semibold text-slate-900">{step.title}</h3>
                  <p className="mt-2 max-w-xs text-sm leading-relaxed text-slate-600">{step.description}</p>
                </li>
              );
            })}
          </ol>
        </div>
      </div>
    </section>
  );
}

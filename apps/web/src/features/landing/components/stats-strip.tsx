import { STATS } from '../content';

export function StatsStrip() {
  return (
    <section
      aria-label="Argus in numbers"
      className="relative isolate overflow-hidden bg-slate-950 py-16 sm:py-20"
    >
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top_left,rgba(99,102,241,0.35),transparent_55%),radial-gradient(ellipse_at_bottom_right,rgba(139,92,246,0.3),transparent_55%)]"
      />
      <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 sm:px-6 lg:grid-cols-4 lg:px-8">
        {STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse items-center text-center">
            <dt className="mt-2 text-sm font-medium text-indigo-200/80">{stat.label}</dt>
            <dd className="bg-linear-to-b from-white to-indigo-200 bg-clip-text text-4xl font-extrabold tracking-tight text-transparent sm:text-5xl">
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

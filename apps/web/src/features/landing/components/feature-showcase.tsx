import { Bell, CircleCheckBig, Clock3, LoaderCircle, Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { FEATURE_HIGHLIGHTS, type FeatureHighlight, HIGHLIGHT_ROTATION_MS } from '../content';
import { useRotatingIndex } from '../hooks/use-rotating-index';

function announceComingSoon(feature: FeatureHighlight) {
  window.alert(`${feature.title} is coming soon! We're putting the finishing touches on it. Stay tuned.`);
}

/** docs/PRODUCT.md#landing-page: four feature highlights rotating every 3.5 s, each with a Coming Soon button. */
export function FeatureShowcase() {
  const [paused, setPaused] = useState(false);
  const { index, select } = useRotatingIndex(FEATURE_HIGHLIGHTS.length, HIGHLIGHT_ROTATION_MS, paused);
  const active = FEATURE_HIGHLIGHTS[index];
  const Icon = active.icon;
  return (
    <section
      aria-roledescription="carousel"
      aria-labelledby="feature-highlights-title"
      className="relative overflow-hidden rounded-2xl bg-white/90 shadow-2xl ring-1 shadow-indigo-900/10 ring-slate-900/5 backdrop-blur"
    >
      {/* The hero has only its h1 above this: the highlights' h3s need an h2 to sit under. */}
      <h2 id="feature-highlights-title" className="sr-only">
        Feature highlights
      </h2>
      <ProgressBar key={index} paused={paused} />

      <div key={active.id} data-testid="active-highlight" className="p-5 sm:p-7">
        <div className="flex items-start gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-linear-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
            <Icon className="size-6" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h3 className="text-lg font-semibold text-slate-900">
              <span className="sr-only">
                Feature {index + 1} of {FEATURE_HIGHLIGHTS.length}:{' '}
              </span>
              {active.title}
            </h3>
            <p className="mt-1 text-sm leading-relaxed text-slate-600">{active.description}</p>
          </div>
        </div>

        <div className="mt-5 h-60 overflow-hidden rounded-xl bg-slate-950 p-4 text-slate-200 ring-1 ring-slate-900/10">
          <HighlightPreview id={active.id} />
        </div>

        <div className="mt-5 flex items-center justify-between gap-3">
          <button
            type="button"
            onClick={() => announceComingSoon(active)}
            className="inline-flex shrink-0 items-center gap-2 rounded-lg bg-indigo-50 px-4 py-2 whitespace-nowrap text-sm font-semibold text-indigo-700 ring-1 ring-indigo-200 transition hover:bg-indigo-100"
          >
            <Bell className="size-4" aria-hidden="true" />
            Coming Soon
          </button>

          <div className="flex items-center gap-1">
            {FEATURE_HIGHLIGHTS.map((feature, i) => (
              <button
                key={feature.id}
                type="button"
                onClick={() => select(i)}
                aria-label={`Show ${feature.title}`}
                aria-current={i === index ? 'true' : undefined}
                className="group flex size-6 items-center justify-center rounded-full"
              >
                <span
                  className={`block h-2 rounded-full transition-all duration-300 ${
                    i === index ? 'w-6 bg-indigo-600' : 'w-2 bg-slate-300 group-hover:bg-slate-400'
                  }`}
                />
              </button>
            ))}
            <button
              type="button"
              onClick={() => setPaused((p) => !p)}
              aria-label={paused ? 'Resume feature rotation' : 'Pause feature rotation'}
              className="ml-1 flex size-7 items-center justify-center rounded-full text-slate-500 transition hover:bg-slate-100 hover:text-slate-600"
            >
              {paused ? (
                <Play className="size-3.5" aria-hidden="true" />
              ) : (
                <Pause className="size-3.5" aria-hidden="true" />
              )}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}

/** A bar that fills over the highlight's 3.5 s; keyed by the active index, so it restarts on every change. */
function ProgressBar({ paused }: { paused: boolean }) {
  const barRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = barRef.current;
    if (!bar || paused || typeof bar.animate !== 'function') return;
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const animation = bar.animate([{ transform: 'scaleX(0)' }, { transform: 'scaleX(1)' }], {
      duration: HIGHLIGHT_ROTATION_MS,
      easing: 'linear',
      fill: 'forwards',
    });
    return () => animation.cancel();
  }, [paused]);
  return (
    <div className="h-1 w-full bg-slate-100" aria-hidden="true">
      <div
        ref={barRef}
        className="h-full origin-left scale-x-0 bg-linear-to-r from-indigo-500 to-violet-500"
      />
    </div>
  );
}

/** A small illustration of each highlight, drawn with markup (no images needed offline). */
function HighlightPreview({ id }: { id: FeatureHighlight['id'] }) {
  switch (id) {
    case 'generation':
      return (
        <div className="space-y-2.5 text-xs" aria-hidden="true">
          <div className="flex items-center gap-2 rounded-md bg-slate-800/80 px-3 py-2 font-mono text-slate-300">
            <span className="size-2 rounded-full bg-emerald-400" />
            https://shop.example.com
          </div>
          {[
            ['Checkout with a saved card', 'High'],
            ['Login rejects a wrong password', 'High'],
            ['Search shows matching products', 'Medium'],
            ['Cart updates the order total', 'Medium'],
          ].map(([name, priority]) => (
            <div
              key={name}
              className="flex items-center justify-between gap-2 rounded-md bg-slate-900 px-3 py-2 ring-1 ring-white/5"
            >
              <span className="flex items-center gap-2 truncate">
                <CircleCheckBig className="size-3.5 shrink-0 text-indigo-400" />
                <span className="truncate">{name}</span>
              </span>
              <span
                className={`shrink-0 rounded px-1.5 py-0.5 text-[10px] font-semibold ${
                  priority === 'High' ? 'bg-rose-500/15 text-rose-300' : 'bg-amber-500/15 text-amber-300'
                }`}
              >
                {priority}
              </span>
            </div>
          ))}
        </div>
      );
    case 'natural-language':
      return (
        <div className="flex h-full flex-col justify-end gap-2.5 text-xs" aria-hidden="true">
          <div className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-indigo-600 px-3.5 py-2 text-white">
            Add a blue t-shirt to the cart and check that the total is right
          </div>
          <div className="max-w-[85%] rounded-2xl rounded-bl-sm bg-slate-800 px-3.5 py-2 text-slate-200">
            Opened the product page, chose size M, clicked <span className="font-semibold">Add to cart</span>.
          </div>
          <div className="max-w-[85%] rounded-2xl rounded-bl-sm bg-slate-800 px-3.5 py-2 text-slate-200">
            <span className="text-emerald-400">✓</span> Cart total shows $24.00, matching the price. All 3
            steps passed.
          </div>
        </div>
      );
    case 'visual':
      return (
        <div className="flex h-full gap-3 text-xs" aria-hidden="true">
          <div className="relative flex-1 overflow-hidden rounded-lg bg-white">
            <div className="flex items-center gap-1 bg-slate-200 px-2 py-1.5">
              <span className="size-1.5 rounded-full bg-rose-400" />
              <span className="size-1.5 rounded-full bg-amber-400" />
              <span className="size-1.5 rounded-full bg-emerald-400" />
            </div>
            <div className="space-y-2 p-3">
              <div className="h-2.5 w-2/3 rounded bg-slate-300" />
              <div className="h-2 w-full rounded bg-slate-200" />
              <div className="h-2 w-5/6 rounded bg-slate-200" />
              <div className="mt-3 h-6 w-24 rounded bg-indigo-500 ring-2 ring-rose-500 ring-offset-2" />
            </div>
            <span className="absolute top-7 right-2 flex items-center gap-1 rounded bg-rose-600 px-1.5 py-0.5 text-[10px] font-bold text-white">
              <span className="size-1.5 animate-pulse rounded-full bg-white" /> LIVE
            </span>
          </div>
          <ul className="hidden w-36 space-y-2 sm:block">
            <li className="flex items-center gap-1.5 text-emerald-400">
              <CircleCheckBig className="size-3.5" /> Navigate
            </li>
            <li className="flex items-center gap-1.5 text-emerald-400">
              <CircleCheckBig className="size-3.5" /> Fill email
            </li>
            <li className="flex items-center gap-1.5 text-indigo-300">
              <LoaderCircle className="size-3.5 animate-spin" /> Click "Sign up"
            </li>
            <li className="flex items-center gap-1.5 text-slate-400">
              <Clock3 className="size-3.5" /> Verify welcome
            </li>
          </ul>
        </div>
      );
    case 'orchestration':
      return (
        <div className="space-y-3 text-xs" aria-hidden="true">
          {[
            ['Checkout suite', 100, '12/12 passed', 'bg-emerald-500'],
            ['Authentication', 100, '8/8 passed', 'bg-emerald-500'],
            ['Search & filters', 68, 'Running 11/16', 'bg-indigo-500'],
            ['Account settings', 35, 'Running 3/9', 'bg-violet-500'],
          ].map(([name, percent, label, colour]) => (
            <div key={name as string}>
              <div className="mb-1 flex justify-between">
                <span className="text-slate-300">{name}</span>
                <span className="text-slate-400">{label}</span>
              </div>
              <div className="h-2 overflow-hidden rounded-full bg-slate-800">
                <div className={`h-full rounded-full ${colour}`} style={{ width: `${percent}%` }} />
              </div>
            </div>
          ))}
        </div>
      );
  }
}

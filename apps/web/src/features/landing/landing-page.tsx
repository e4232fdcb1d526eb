import { useCallback, useState } from 'react';
import { ClosingCta } from './components/closing-cta';
import { DemoRequestModal } from './components/demo-request-modal';
import { FeatureGrid } from './components/feature-grid';
import { Footer } from './components/footer';
import { Hero } from './components/hero';
import { HowItWorks } from './components/how-it-works';
import { Navbar } from './components/navbar';
import { PricingSection } from './components/pricing-section';
import { StatsStrip } from './components/stats-strip';
import { Testimonials } from './components/testimonials';
import { WatchDemoModal } from './components/watch-demo-modal';

export interface LandingPageProps {
  /** A signed-in user sees 'Start Testing Now' (to /automation) instead of 'Start Free Trial'. */
  isAuthenticated?: boolean;
}

/** Route `/` (docs/PRODUCT.md#landing-page). */
export function LandingPage({ isAuthenticated = false }: LandingPageProps) {
  const [demoOpen, setDemoOpen] = useState(false);
  const [videoOpen, setVideoOpen] = useState(false);
  const openDemo = useCallback(() => setDemoOpen(true), []);
  const closeDemo = useCallback(() => setDemoOpen(false), []);
  const closeVideo = useCallback(() => setVideoOpen(false), []);

  return (
    <div id="top" className="min-h-screen bg-white font-sans text-slate-900 antialiased">
      <Navbar onScheduleDemo={openDemo} />
      <main>
        <Hero isAuthenticated={isAuthenticated} onWatchDemo={() => setVideoOpen(true)} />
        <FeatureGrid />
        <StatsStrip />
        <HowItWorks />
        <Testimonials />
        <PricingSection />
        <ClosingCta />
      </main>
      <Footer onScheduleDemo={openDemo} />

      <DemoRequestModal open={demoOpen} onClose={closeDemo} />
      <WatchDemoModal open={videoOpen} onClose={closeVideo} />
    </div>
  );
}

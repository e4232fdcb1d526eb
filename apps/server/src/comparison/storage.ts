import type { DetailedComparison } from '@argus/design-diff';
import {
  type ComparisonIssue,
  type ComparisonResults,
  ComparisonResultsSchema,
  type CssFix,
  type ViewportImages,
} from '@argus/protocol';
import type { SignedUrls } from '../storage/signed-urls';
import type { Review } from './ai-review';
import type { ComparisonDeps } from './comparison-deps';
import { storedBytes } from './design-uploads';
import type { ComparisonRequest } from './request-checks';

export const ENGINE_PIXEL = 'Argus design-diff (pixel, SSIM, CIEDE2000)';
export const ENGINE_FIGMA = 'Argus design-diff (pixel, SSIM, CIEDE2000) + Figma node styles';

/** A viewport's two stored images (comparison_images ids) and the size they were compared at. */
type StoredImages = { site: string; design: string; width: number; height: number };

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function signedImages(urls: SignedUrls, userId: string, ids: StoredImages): ViewportImages {
  return {
    site_url: urls.design('comparison-image', ids.site, userId),
    design_url: urls.design('comparison-image', ids.design, userId),
    width: ids.width,
    height: ids.height,
  };
}

/**
 * The results as stored and sent: the measured ones with the Figma issues and fixes and the review
 * added (each list capped as the schema allows), the images' links, and the engine naming every part
 * that made them.
 */
export function finalResults(
  request: ComparisonRequest,
  detailed: DetailedComparison,
  measured: { issues: ComparisonIssue[]; fixes: CssFix[] },
  review: Review | null,
  viewportImages: Record<string, ViewportImages>,
): ComparisonResults {
  const { results } = detailed;
  const measuredEngine = request.source.type === 'figma' ? ENGINE_FIGMA : ENGINE_PIXEL;
  return ComparisonResultsSchema.parse({
    ...results,
    specific_issues: measured.issues.slice(0, 1000),
    css_fixes: measured.fixes.slice(0, 1000),
    recommendations: [...results.recommendations, ...(review?.recommendations ?? [])].slice(0, 500),
    minor_differences: [...results.minor_differences, ...(review?.note ? [review.note] : [])].slice(0, 1000),
    viewport_images: viewportImages,
    engine: review?.engine
      ? `${measuredEngine} + AI visual review (${review.engine})`.slice(0, 200)
      : measuredEngine,
  });
}

/**
 * What a comparison keeps: the uploaded design is read from the blob store; each viewport's two
 * images go there too (comparison_images rows, within the user's quota), and the results with the
 * session (a comparisons row), their image links signed afresh whenever they are read.
 */
export class ComparisonStorage {
  constructor(private readonly deps: Pick<ComparisonDeps, 'config' | 'repos' | 'blobs' | 'urls' | 'log'>) {}

  /** The bytes of an uploaded design. */
  readDesign(sha256: string): Promise<Buffer> {
    return readAll(this.deps.blobs.read(sha256));
  }

  /**
   * Each viewport's site capture and aligned design, stored as the user's while their quota has room
   * (the rest is left out, and logged), with their signed links.
   */
  async storeImages(
    userId: string,
    detailed: DetailedComparison,
    signal: AbortSignal,
  ): Promise<{ images: Record<string, StoredImages>; viewportImages: Record<string, ViewportImages> }> {
    const images: Record<string, StoredImages> = {};
    const viewportImages: Record<string, ViewportImages> = {};
    let used = await storedBytes(this.deps.repos, userId);
    for (const viewport of detailed.viewports) {
      if (!viewport.images || signal.aborted) continue;
      const size = viewport.images.site.length + viewport.images.design.length;
      if (used + size > this.deps.config.maxStoredBytesPerUser) {
        this.deps.log.warn({ userId }, 'comparison images not stored: the storage quota is used up');
        break;
      }
      used += size;
      const store = async (png: Buffer) =>
        (
          await this.deps.repos.designComparisons.addImage(userId, {
            sha256: await this.deps.blobs.put(png),
            bytes: png.length,
            width: viewport.width,
            height: viewport.comparedHeight,
          })
        ).id;
      const site = await store(viewport.images.site);
      const design = await store(viewport.images.design);
      images[viewport.name] = { site, design, width: viewport.width, height: viewport.comparedHeight };
      viewportImages[viewport.name] = signedImages(this.deps.urls, userId, images[viewport.name]);
    }
    return { images, viewportImages };
  }

  /** The comparison's row with the session: what it compared, its results and its images' ids. */
  async save(
    userId: string,
    request: ComparisonRequest,
    results: ComparisonResults,
    images: Record<string, StoredImages>,
  ): Promise<void> {
    await this.deps.repos.designComparisons.addComparison(userId, {
      session_id: request.sessionId,
      comparison_type: request.source.type,
      website_url: request.websiteUrl,
      figma_url: request.source.type === 'figma' ? request.source.figmaUrl : null,
      file_id: request.source.type === 'image' ? request.source.fileId : null,
      results: results as unknown as Record<string, unknown>,
      images,
    });
  }

  /** The stored comparison of a session, links signed afresh; undefined when it has none of the user's. */
  async stored(userId: string, sessionId: string) {
    const row = await this.deps.repos.designComparisons.latestForSession(userId, sessionId);
    if (!row) return undefined;
    const viewport_images = Object.fromEntries(
      Object.entries(row.images).map(([name, ids]) => [name, signedImages(this.deps.urls, userId, ids)]),
    );
    return {
      id: row.id,
      session_id: sessionId,
      comparison_type: row.comparison_type as 'figma' | 'image',
      website_url: row.website_url,
      figma_url: row.figma_url,
      file_id: row.file_id,
      results: { ...row.results, viewport_images },
      created_at: row.created_at.toISOString(),
    };
  }
}

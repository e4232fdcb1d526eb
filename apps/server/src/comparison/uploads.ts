import type { DesignUploadRow } from '@argus/db';
import type { ClientMessageOf } from '@argus/protocol';
import { AppError } from '../errors';
import type { RateLimit } from '../limits/rate-limiter';
import { uploadLimit } from '../limits/rate-limits';
import type { Unaddressed } from '../realtime/user-channel';
import type { ComparisonDeps } from './comparison-deps';
import {
  checkDesignQuota,
  dataUrlBytes,
  decodeDataUrl,
  storeDesignUpload,
  toUploadedDesign,
} from './design-uploads';
import type { RequestChecks } from './request-checks';

export const UPLOAD_BUSY =
  'A design upload of yours is still being processed: send the next one once it has finished (one at a time).';

/**
 * Which uploads are taken (one at a time per user, UPLOADS_PER_USER per window, over HTTP and the socket
 * together) and the socket's upload of a data URL. What a design is and how it is stored:
 * design-uploads.ts.
 */
export class Uploads {
  /** UPLOADS_PER_USER per RATE_LIMIT_WINDOW_SECONDS, over HTTP and the socket together. */
  private readonly limiter: RateLimit;
  /** Users with an upload being checked, decoded or stored: one at a time each. */
  private readonly uploading = new Set<string>();

  constructor(
    private readonly deps: Pick<
      ComparisonDeps,
      'config' | 'repos' | 'blobs' | 'urls' | 'checkSession' | 'uploadLimit'
    >,
    private readonly checks: Pick<RequestChecks, 'checkWebsite'>,
    /** Runs a decode under the process's image-work bound. */
    private readonly decodeWork: <T>(run: () => Promise<T>) => Promise<T>,
  ) {
    this.limiter = deps.uploadLimit ?? uploadLimit(deps.config);
  }

  /**
   * Runs one upload of the user's (HTTP or socket): refused at once, before its body is decoded, when
   * another of theirs is still being processed (COMPARISON_BUSY: refused, not queued, so a flood costs
   * nothing) or when they have sent UPLOADS_PER_USER in the window (RATE_LIMITED, with Retry-After).
   */
  async run<T>(userId: string, work: () => Promise<T>): Promise<T> {
    if (this.uploading.has(userId)) throw new AppError('COMPARISON_BUSY', UPLOAD_BUSY);
    // Marked busy before the limit is awaited, so a second upload meanwhile is refused as busy too.
    this.uploading.add(userId);
    try {
      const { allowed, retryAfterSeconds } = await this.limiter.hit(userId);
      if (!allowed) {
        const { uploadsPerUser, rateLimitWindowSeconds } = this.deps.config;
        throw new AppError(
          'RATE_LIMITED',
          `Too many design uploads: at most ${uploadsPerUser} every ${Math.round(rateLimitWindowSeconds / 60)} minutes (UPLOADS_PER_USER, RATE_LIMIT_WINDOW_SECONDS). Try again in ${retryAfterSeconds} s.`,
          { 'retry-after': String(retryAfterSeconds) },
        );
      }
      return await work();
    } finally {
      this.uploading.delete(userId);
    }
  }

  /** `upload_and_compare_image`'s design, stored as an upload of the user's (admitted by `run`). */
  fromDataUrl(
    userId: string,
    data: ClientMessageOf<'upload_and_compare_image'>['data'],
  ): Promise<DesignUploadRow> {
    const sessionId = data.session_id || null;
    return this.run(userId, async () => {
      // Its size and the user's quota first, from the base64's length: nothing is decoded for a
      // design that could not be stored.
      const size = dataUrlBytes(data.image_data);
      await this.deps.checkSession(userId, sessionId);
      // Checked before the upload is stored: a website the comparison could not reach stores nothing.
      if (data.website_url) await this.checks.checkWebsite(data.website_url);
      const { repos, blobs, urls, config } = this.deps;
      await checkDesignQuota(repos, userId, config.maxStoredBytesPerUser, size);
      const bytes = decodeDataUrl(data.image_data);
      return storeDesignUpload(
        {
          repos,
          blobs,
          urls,
          maxStoredBytesPerUser: config.maxStoredBytesPerUser,
          imageWork: this.decodeWork,
        },
        userId,
        bytes,
        data.filename,
      );
    });
  }

  /** `upload_completed` for a stored upload, its links freshly signed. */
  completed(row: DesignUploadRow): Unaddressed {
    const uploaded = toUploadedDesign(row, this.deps.urls);
    return {
      type: 'upload_completed',
      data: {
        file_id: uploaded.file_id,
        filename: uploaded.filename,
        url: uploaded.url,
        ...(uploaded.thumbnail_url && { thumbnail_url: uploaded.thumbnail_url }),
      },
    };
  }
}

import { exportPlaywright } from '@argus/playwright-export';
import { MOBILE_VIEWPORT } from '@argus/protocol';
import { strToU8, zipSync } from 'fflate';
import { z } from 'zod';
import type { Services } from '../app-services';
import { audit } from '../audit/recorder';
import { heavy } from '../limits/heavy-requests';
import { environmentOf } from '../projects/project-service';
import { SuiteParamsSchema } from './projects';
import { routeGroup, routeOf, routePlugin } from './route-group';

const ExportQuerySchema = z.object({ environment_id: z.string().max(100).optional() });

/** What these routes use of the app's services (app.ts hands each plugin only these). */
export type ExportRouteServices = Pick<Services, 'projects' | 'limits'>;

/** The header that says how many lines the export left as TODO comments. */
export const EXPORT_TODO_HEADER = 'x-argus-export-todo';

/** A file name for the zip: the suite's name in letters, digits, `-` and `_`. */
function zipName(suite: string): string {
  const base = suite
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'suite'}-playwright.zip`;
}

/**
 * "Export to Playwright" (docs/EXPORT.md): a saved suite as a Playwright Test project in a zip, for an
 * environment of its project (its default when none is named). Owner-scoped like every project route:
 * another user's project or suite answers 404 like a missing one. Variables are read by name and
 * kind only; a secret is never decrypted, so its value cannot reach the export.
 */
const route = routeOf<ExportRouteServices>();

export const EXPORT_ROUTES = routeGroup('/api/projects', [
  // Heavy: HEAVY_REQUESTS_PER_USER at once per user (limits/heavy-requests.ts).
  heavy(
    route({
      method: 'GET',
      path: '/:id/suites/:suiteId/export',
      summary:
        'Export a saved suite as a Playwright Test project, for an environment (?environment_id=, else the default); X-Argus-Export-Todo says how many lines were left as TODO comments',
      tag: 'Suites',
      params: SuiteParamsSchema,
      query: ExportQuerySchema,
      media: { type: 'application/zip', description: 'The Playwright Test project (docs/EXPORT.md)' },
      handle: async ({ org, request, reply, params, query }, { projects }) => {
        const { id, suiteId } = params;
        const orgId = org.id;
        const project = await projects.get(orgId, id);
        const suite = await projects.getSuite(orgId, id, suiteId);
        const environment = environmentOf(project, query.environment_id);
        // The environment's own value wins over the project's; a secret is only its name.
        const variables = new Map<string, { name: string; secret: boolean; value: string | null }>();
        for (const level of [null, environment.id]) {
          for (const one of await projects.variables(orgId, id)) {
            if (one.environment_id !== level) continue;
            variables.set(one.name, {
              name: one.name,
              secret: one.secret,
              value: one.secret ? null : one.value,
            });
          }
        }
        const result = exportPlaywright({
          project: project.name,
          environment: { name: environment.name, base_url: environment.base_url },
          login: project.login,
          variables: [...variables.values()].sort((a, b) => a.name.localeCompare(b.name)),
          suites: [{ name: suite.name, test_cases: suite.test_cases }],
          ...(project.kind === 'mobile' ? { viewport: { ...MOBILE_VIEWPORT } } : {}),
        });
        const folder = zipName(suite.name).replace(/\.zip$/, '');
        const zip = zipSync(
          Object.fromEntries(result.files.map((file) => [`${folder}/${file.path}`, strToU8(file.content)])),
          { level: 6, mtime: new Date(suite.updated_at) },
        );
        await audit.record(request, {
          action: 'export_downloaded',
          projectId: id,
          target: suite.name,
          detail: { kind: 'playwright', environment: environment.name },
        });
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${zipName(suite.name)}"`)
          .header(EXPORT_TODO_HEADER, String(result.todo))
          .header('x-argus-export-tests', String(result.tests))
          .header('cache-control', 'no-store')
          .send(Buffer.from(zip));
      },
    }),
  ),
]);

export const exportRoutes = routePlugin(EXPORT_ROUTES);

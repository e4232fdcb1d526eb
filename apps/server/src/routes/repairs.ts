import {
  ApproveRepairsResultSchema,
  ApproveRepairsSchema,
  CaseRepairListSchema,
  CaseRepairSchema,
  IdParamsSchema,
  RejectRepairSchema,
  RepairStatusSchema,
} from '@argus/protocol';
import { z } from 'zod';
import { suiteSaved } from '../audit/project-events';
import { audit } from '../audit/recorder';
import type { RepairService } from '../repairs/repair-service';
import { SuiteParamsSchema } from './projects';
import { routeGroup, routeOf, routePlugin } from './route-group';

/** What these routes use (app.ts hands the plugin only this). */
export interface RepairRouteServices {
  repairs: RepairService;
}

const RepairParamsSchema = SuiteParamsSchema.extend({ repairId: z.string().max(100) });
const RepairQuerySchema = z.object({ status: RepairStatusSchema.optional() });

/**
 * Repairs (docs/REPAIRS.md): a run's verdicts, a suite's, and their review. Approving saves the chosen
 * proposals as one new suite version (the history keeps the old one); rejecting keeps the same repair
 * from being proposed again for the same page state. Scoped to the request's organization: another's
 * run, suite or repair answers 404 like a missing one. Deciding needs the role that saves suites.
 */
const route = routeOf<RepairRouteServices>();

export const REPAIR_ROUTES = routeGroup('/api', [
  route({
    method: 'GET',
    path: '/runs/:id/repairs',
    summary: "A run's repair verdicts: repairs proposed (with their step diff and proof) and bugs",
    tag: 'Repairs',
    params: IdParamsSchema,
    response: CaseRepairListSchema,
    handle: async ({ org, params }, { repairs }) => repairs.forRun(org.id, params.id),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/suites/:suiteId/repairs',
    summary: "A saved suite's repair verdicts, newest first (optionally of one status)",
    tag: 'Repairs',
    params: SuiteParamsSchema,
    query: RepairQuerySchema,
    response: CaseRepairListSchema,
    handle: async ({ org, params, query }, { repairs }) =>
      repairs.forSuite(org.id, params.id, params.suiteId, query.status),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/suites/:suiteId/repairs/approve',
    summary:
      'Approve repairs: saved together as one new suite version (409 when one cannot be saved as it is)',
    tag: 'Repairs',
    params: SuiteParamsSchema,
    body: ApproveRepairsSchema,
    response: ApproveRepairsResultSchema,
    handle: async ({ request, org, user, params, body }, { repairs }) => {
      const { result, suite } = await repairs.approve(org.id, user, params.id, params.suiteId, body);
      const saved = suiteSaved(suite);
      await audit.record(request, {
        ...saved,
        detail: { ...saved.detail, repairs: result.repairs.length, change: result.change },
      });
      return result;
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/suites/:suiteId/repairs/:repairId/reject',
    summary: 'Reject a repair: it is not proposed again for the same page state',
    tag: 'Repairs',
    params: RepairParamsSchema,
    body: RejectRepairSchema,
    response: CaseRepairSchema,
    handle: async ({ request, org, user, params, body }, { repairs }) => {
      const rejected = await repairs.reject(
        org.id,
        user,
        { projectId: params.id, suiteId: params.suiteId, repairId: params.repairId },
        body,
      );
      // Who turned a repair down, so it is not proposed again, is worth knowing as an approval is.
      await audit.record(request, {
        action: 'repair_rejected',
        projectId: params.id,
        target: rejected.case_name,
        detail: { suite_id: params.suiteId, repair_id: rejected.id, run_id: rejected.run_id },
      });
      return rejected;
    },
  }),
]);

export const repairRoutes = routePlugin(REPAIR_ROUTES);

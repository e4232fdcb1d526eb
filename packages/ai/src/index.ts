export { BuiltinPlanner } from './builtin-planner';
export type { Planner, PlanRequest } from './planner';

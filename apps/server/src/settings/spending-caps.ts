import { ModelError, type SpendGuard } from '@argus/ai';
import { day, formatUsd, monthStart, nextMonthStart } from './amounts';
import type { SettingsParts } from './model-settings-deps';

/** What one model call under way holds against its user's budget and, on the server's key, the operator's caps. */
interface Hold {
  userId: string;
  serverKey: boolean;
  usd: number;
}

/**
 * The user's monthly budget and, on the server's key, the operator's per-user and total caps: checked
 * before every call, with what calls under way hold against them.
 */
export class SpendingCaps {
  /** Model calls under way and what each holds against the caps (spendGuard). */
  private readonly holds = new Set<Hold>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: Pick<SettingsParts, 'config' | 'repos' | 'now'>) {}

  /**
   * Before every model call: throws `ModelError('budget')` once this month's cost has reached the
   * user's monthly budget, saying the budget, what was spent and when calls resume.
   */
  async checkBudget(userId: string): Promise<void> {
    const row = await this.deps.repos.userSettings.get(userId);
    const budget = row?.monthly_budget_usd;
    if (budget === null || budget === undefined) return;
    const now = this.deps.now();
    const since = monthStart(now);
    const { cost_usd: spent } = await this.deps.repos.modelUsage.totalsSince(userId, since);
    if (spent < budget) return;
    throw new ModelError(
      'budget',
      `Your monthly model budget of ${formatUsd(budget)} is reached: ${formatUsd(spent)} spent since ${day.format(since)} (UTC). ` +
        `Model calls resume on ${day.format(nextMonthStart(now))}, or as soon as you raise the budget in Settings.`,
    );
  }

  /**
   * What each model call of this user's holds before it is made (ModelConfig.spend): its most likely
   * cost is checked, together with this month's stored cost and what calls under way hold, against
   * the user's own budget and, on the server's key, the operator's per-user and total caps, and held
   * until the call's usage is stored. Holds live in this process (one server process today): the
   * check and the hold happen under one lock, and a hold is let go under it too, after its usage row
   * is written, so no two calls can both fit in the same remaining amount.
   */
  spendGuard(userId: string, serverKey: boolean): SpendGuard {
    return {
      reserve: ({ estimateUsd }) =>
        this.exclusive(async () => {
          await this.checkCaps(userId, serverKey, Math.max(0, estimateUsd));
          const hold: Hold = { userId, serverKey, usd: Math.max(0, estimateUsd) };
          this.holds.add(hold);
          let settled = false;
          return {
            settle: async () => {
              if (settled) return;
              settled = true;
              await this.exclusive(async () => {
                this.holds.delete(hold);
              });
            },
          };
        }),
    };
  }

  /** Throws ModelError('budget') naming the cap and the amounts when a call of up to `estimate` does not fit. */
  private async checkCaps(userId: string, serverKey: boolean, estimate: number): Promise<void> {
    const now = this.deps.now();
    const since = monthStart(now);
    const until = `Calls resume on ${day.format(nextMonthStart(now))}`;
    const held = (match: (hold: Hold) => boolean) =>
      [...this.holds].filter(match).reduce((sum, hold) => sum + hold.usd, 0);
    // Refused when what is spent and held already reaches the cap, or this call could pass it.
    const over = (cap: number, used: number) => used >= cap || used + estimate > cap;
    const amounts = (spent: number, heldUsd: number) =>
      `${formatUsd(spent)} spent since ${day.format(since)} (UTC)` +
      (heldUsd > 0 ? ` and ${formatUsd(heldUsd)} held for calls under way` : '') +
      `, and this call may cost up to ${formatUsd(estimate)}`;

    const row = await this.deps.repos.userSettings.get(userId);
    const budget = row?.monthly_budget_usd;
    if (budget !== null && budget !== undefined) {
      const { cost_usd: spent } = await this.deps.repos.modelUsage.totalsSince(userId, since);
      const mine = held((hold) => hold.userId === userId);
      if (over(budget, spent + mine))
        throw new ModelError(
          'budget',
          `Your monthly model budget of ${formatUsd(budget)} does not allow this call: ${amounts(spent, mine)}. ` +
            `${until}, or as soon as you raise the budget in Settings.`,
        );
    }
    if (!serverKey) return;
    const { aiServerKeyUserMonthlyUsd: userCap, aiServerKeyTotalMonthlyUsd: totalCap } = this.deps.config;
    const userSpent = await this.deps.repos.modelUsage.serverKeyCostSince(since, userId);
    const userHeld = held((hold) => hold.serverKey && hold.userId === userId);
    if (over(userCap, userSpent + userHeld))
      throw new ModelError(
        'budget',
        `The server's model allows each user ${formatUsd(userCap)} a month (AI_SERVER_KEY_USER_MONTHLY_USD): ` +
          `${amounts(userSpent, userHeld)}. ${until}, or choose your own model and key in Settings.`,
      );
    const totalSpent = await this.deps.repos.modelUsage.serverKeyCostSince(since);
    const totalHeld = held((hold) => hold.serverKey);
    if (over(totalCap, totalSpent + totalHeld))
      throw new ModelError(
        'budget',
        `The server's model has reached its monthly limit of ${formatUsd(totalCap)} for all users together ` +
          `(AI_SERVER_KEY_TOTAL_MONTHLY_USD): ${amounts(totalSpent, totalHeld)}. ${until}, or choose your own model and key in Settings.`,
      );
  }

  /** Runs `task` after every task queued before it has finished: the caps' check-and-hold is atomic. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

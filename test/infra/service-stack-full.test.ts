import { describe, expect, it } from 'vitest';
import { planStacks } from '#infra/plan.js';
import { fullRouteGroups } from './helpers.js';
import { describeServiceStack } from './service-checks.js';

// All 279 routes of the finished service (test/infra/fixtures/routes.json), with fake files.
describeServiceStack('the full route list (279 routes)', fullRouteGroups);

describe('the full route list', () => {
  it('has 279 routes needing 248 API path resources', () => {
    const routes = Object.values(fullRouteGroups()).flat();
    expect(routes).toHaveLength(279);
  });

  it('splits serverstats (117 routes) into several nested stacks and keeps other modules whole', () => {
    const plans = planStacks(fullRouteGroups());
    const serverstats = plans.filter((p) => p.group === 'serverstats');
    expect(serverstats.length).toBeGreaterThan(1);
    expect(serverstats.flatMap((p) => p.routes)).toHaveLength(117);
    expect(plans.filter((p) => p.group !== 'serverstats').map((p) => p.id)).toEqual(Object.keys(fullRouteGroups()).filter((g) => g !== 'serverstats'));
  });
});

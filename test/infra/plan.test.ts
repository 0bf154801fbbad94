import { describe, expect, it } from 'vitest';
import { routeGroups } from '#functions/routes.js';
import { apiResourcePaths, checkRoutes, estimateResources, methodsByPath, pathOwners, planStacks, resourcePathOf } from '#infra/plan.js';
import type { Route } from '#shared/http/route.js';
import { fullRouteGroups } from './helpers.js';

const route = (id: string, method: Route['method'], path: string): Route => ({ id, method, path, access: 'client', file: `functions/${id}.ts`, summary: id });

describe('plan', () => {
  it('serves a trailing-slash path from its parent resource', () => {
    expect(resourcePathOf('/modules/polls/')).toBe('/modules/polls');
    expect(resourcePathOf('/livez')).toBe('/livez');
  });

  it('lists every path resource of the full route list once: 248, under the quota of 300', () => {
    const paths = apiResourcePaths(Object.values(fullRouteGroups()).flat());
    expect(paths).toHaveLength(248);
    expect(paths).toContain('/modules');
    expect(paths).not.toContain('/');
  });

  it('accepts the real and the full route lists', () => {
    expect(() => checkRoutes(Object.values(routeGroups).flat())).not.toThrow();
    expect(() => checkRoutes(Object.values(fullRouteGroups()).flat())).not.toThrow();
  });

  it('rejects what API Gateway would reject at deploy time', () => {
    expect(() => checkRoutes([route('a.x', 'GET', '/a/'), route('a.y', 'GET', '/a')])).toThrow(/both serve GET \/a/);
    expect(() => checkRoutes([route('a.x', 'GET', '/a/{x}'), route('a.y', 'POST', '/a/{y}')])).toThrow(/two path parameters/);
    expect(() => checkRoutes([route('a.x', 'GET', '/a'), route('a.x', 'POST', '/a')])).toThrow(/used twice/);
  });

  it('keeps each stack within the budget and every route in exactly one stack', () => {
    const groups = fullRouteGroups();
    const plans = planStacks(groups, 400);
    for (const plan of plans) expect(estimateResources(plan.routes), plan.id).toBeLessThanOrEqual(400);
    expect(plans.flatMap((p) => p.routes.map((r) => r.id)).sort()).toEqual(
      Object.values(groups)
        .flat()
        .map((r) => r.id)
        .sort(),
    );
    expect(plans.filter((p) => p.primary).map((p) => p.group)).toEqual(Object.keys(groups));
    expect(plans.filter((p) => p.group === 'serverstats').map((p) => p.id)).toEqual(['serverstats', 'serverstats-stats', 'serverstats-stats-modules']);
  });

  it('splits by path subtree, so route order does not move a route between stacks', () => {
    const groups = fullRouteGroups();
    const shuffled = Object.fromEntries(
      Object.entries(groups).map(([g, rs]) => [g, [...rs.filter((_, i) => i % 2 === 1), ...rs.filter((_, i) => i % 2 === 0)].reverse()]),
    );
    const placement = (plans: ReturnType<typeof planStacks>) => new Map(plans.flatMap((p) => p.routes.map((r) => [r.id, p.id])));
    expect(placement(planStacks(shuffled))).toEqual(placement(planStacks(groups)));
  });

  it('gives a path resource to the one stack using it, or to the root stack when several do', () => {
    const owners = pathOwners(planStacks(fullRouteGroups()));
    expect(owners.get('/modules')).toBeNull();
    expect(owners.get('/modules/serverstats')).toBeNull();
    expect(owners.get('/modules/serverstats/stats')).toBeNull();
    expect(owners.get('/modules/serverstats/stats/modules')).toBe('serverstats-stats-modules');
    expect(owners.get('/modules/polls')).toBe('polls');
    expect(owners.get('/auth/api-key')).toBe('auth');
    expect(owners.get('/livez')).toBe('health');
  });

  it('collects the Allow list of each path', () => {
    const allowed = methodsByPath(Object.values(routeGroups).flat());
    expect(allowed.get('/auth/api-key')).toEqual(['DELETE', 'GET', 'POST']);
    expect(allowed.get('/modules/polls')).toEqual(['GET']);
  });
});

import { describe, expect, it } from 'vitest';
import { routeGroups } from '#functions/routes.js';
import type { Route } from '#shared/http/route.js';
import { jobs } from '#infra/jobs.js';
import { jobQueueOf } from '#shared/scheduler/job.js';
import { STACK_RESOURCE_LIMIT } from '#infra/plan.js';
import { nagFindings, resourcesOfType, synthService, templatesOf } from './helpers.js';
import { describeServiceStack } from './service-checks.js';

describeServiceStack("today's routes (functions/routes.ts)", () => routeGroups as unknown as Record<string, Route[]>);

describe('construct IDs', () => {
  it('do not depend on the order of routes or groups', () => {
    const logicalIds = (groups: Record<string, Route[]>) => {
      const synth = synthService(groups);
      return resourcesOfType(templatesOf(synth), 'AWS::Lambda::Function')
        .map((f) => `${f.stack.node.id}/${f.logicalId}`)
        .sort();
    };
    const groups = routeGroups as unknown as Record<string, Route[]>;
    const reversed = Object.fromEntries(
      Object.entries(groups)
        .reverse()
        .map(([group, routes]) => [group, [...routes].reverse()]),
    );
    expect(logicalIds(reversed)).toEqual(logicalIds(groups));
    // Two syntheses of the whole app (with its monitoring stack): about 15 s on an idle machine, over 30 on a busy one.
  }, 120_000);
});

describe('the app as deployed today (real routes and jobs)', () => {
  it('passes cdk-nag and the limits with the job queues included', () => {
    const synth = synthService(routeGroups as unknown as Record<string, Route[]>, { jobs });
    const templates = templatesOf(synth);
    expect(nagFindings(synth.app)).toEqual([]);
    for (const [stack, template] of templates) expect(Object.keys(template.Resources).length, stack.node.path).toBeLessThanOrEqual(STACK_RESOURCE_LIMIT);
    // One consumer a job queue, and jobs share queues (issue 45 part 3).
    expect(resourcesOfType(templates, 'AWS::Lambda::EventSourceMapping')).toHaveLength(new Set(jobs.map(jobQueueOf)).size);
  });
});

import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';
import { MethodNotAllowed } from './method-not-allowed.js';

/** Where the API's path resources go and which of them serve methods. */
export interface ApiPathsProps {
  /** The API's root resource (`/`). */
  root: apigw.IResource;
  /** The construct each path resource is created in (its owning stack's `Paths` scope). */
  scopeOf: (path: string) => Construct;
  /** Path -> methods served there; such paths also get the 405 ANY mock. */
  allowed: ReadonlyMap<string, readonly string[]>;
  /** Path -> its 405 page, for paths answering pages instead of the envelope (MethodNotAllowedProps.page). */
  pages?: ReadonlyMap<string, string>;
}

/**
 * Creates each API path resource exactly once, in the stack that owns it
 * (see `pathOwners` in plan.ts), with its parent possibly in another stack:
 * CDK turns the parent's ID into a nested stack parameter. A path that
 * serves methods gets its 405 ANY mock next to it, in the same stack.
 */
export class ApiPaths {
  private readonly resources = new Map<string, apigw.IResource>();
  /** Every 405 mock created, for the deployment's dependencies. */
  readonly notAllowed: MethodNotAllowed[] = [];

  constructor(private readonly props: ApiPathsProps) {}

  /** The resource of a path such as `/modules/polls/entry/{poll_id}`, created with its ancestors on first use. */
  resource(path: string): apigw.IResource {
    if (path === '/') return this.props.root;
    const existing = this.resources.get(path);
    if (existing) return existing;
    const segments = path.split('/').filter(Boolean);
    const parent = this.resource(`/${segments.slice(0, -1).join('/')}`);
    // The ID spells the path, so logical IDs follow paths, not creation order.
    const resource = new apigw.Resource(this.props.scopeOf(path), segments.join('.'), { parent, pathPart: segments.at(-1)! });
    this.resources.set(path, resource);
    const allowed = this.props.allowed.get(path);
    if (allowed) this.notAllowed.push(new MethodNotAllowed(resource, 'MethodNotAllowed', { resource, allowed, page: this.props.pages?.get(path) }));
    return resource;
  }

  /** How many path resources exist so far (the API's quota counts these). */
  get size(): number {
    return this.resources.size;
  }
}

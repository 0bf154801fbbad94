import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { StackPlan } from '../plan.js';
import { ModuleRuntime, type ModuleRuntimeProps } from '../constructs/module-runtime.js';

/** One share of the routes, and for a module's first stack what its role needs access to. */
export interface RoutesStackProps extends NestedStackProps {
  plan: StackPlan;
  /** Given to the group's primary stack, which creates the module's role and log group. */
  runtime?: Omit<ModuleRuntimeProps, 'module'>;
}

/**
 * A nested stack holding one share of a module's routes (see plan.ts): their
 * functions, permissions and methods, the API paths only they use, and, in
 * the module's first stack, the module's role and log group. The root stack
 * fills it; this class only provides the scopes.
 */
export class RoutesStack extends NestedStack {
  readonly plan: StackPlan;
  /** Scope of the API path resources this stack owns. */
  readonly paths: Construct;
  /** Set on the group's primary stack. */
  readonly moduleRuntime?: ModuleRuntime;

  constructor(scope: Construct, props: RoutesStackProps) {
    const { plan, runtime, ...nestedStackProps } = props;
    // The construct ID is the plan ID (group and subtree), never a position in a list.
    super(scope, plan.id, { description: `Routes of ${plan.id}`, ...nestedStackProps });
    this.plan = plan;
    this.paths = new Construct(this, 'Paths');
    if (plan.primary) {
      if (!runtime) throw new Error(`${plan.id} is its module's first stack and needs the runtime props`);
      this.moduleRuntime = new ModuleRuntime(this, 'Runtime', { module: plan.group, ...runtime });
    }
  }
}
